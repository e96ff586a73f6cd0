"""Reads the halo_bench JSON reports of an A/B run, one per build, cube and round, named
<build>_<cube>_round<r>[<suffix>].json: each verified strategy's median exchange time per round,
keyed by (cube, transport, strategy, build), and the GPUs the reports name."""
import json
import re
from collections import defaultdict
from pathlib import Path


def read_rounds(folder: Path, builds: str):
    """`builds`: a regular expression of the build names, e.g. "before|after"."""
    medians = defaultdict(list)  # (cube, transport, strategy, build) -> per-round medians
    gpus = set()
    pattern = re.compile(rf"({builds})_(\d+)_round(\d+)(_\w+)?\.json")
    for path in sorted(folder.glob("*_round*.json")):
        match = pattern.fullmatch(path.name)
        if not match:
            continue
        build, cube = match.group(1), int(match.group(2))
        report = json.loads(path.read_text())
        for gpu in report.get("machine", {}).get("gpus", []):
            gpus.add(gpu.get("name", "?"))
        for entry in report.get("strategies", []):
            summary = entry.get("summary_us")
            if not summary or entry.get("verification", {}).get("wrong_exchanges", 0):
                continue
            key = (cube, entry.get("transport", "-"), entry["strategy"], build)
            medians[key].append(summary["median"])
    return medians, gpus
