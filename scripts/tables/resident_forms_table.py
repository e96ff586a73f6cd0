#!/usr/bin/env python3
"""Jacobi3D's resident variant in two or more forms (two programs, or one program with two option
sets), each run beside a conventional loop, as the records' device calls write them:
j3d<local>_<points>pt_<form>_r<round>.json, one file per run.

  scripts/tables/resident_forms_table.py RUNS_DIR

One row per size and stencil; for each form, the overlapped conventional loop and the resident
variant in µs per iteration, the resident ratio (the faster conventional loop of the same run
over the resident variant, as the run's JSON gives it), and the resident update alone in µs with
its fraction of the copy rate of the same run; where the runs have the stream variant, its µs
and ratio too. Each cell is the median over the rounds of the
runs' medians (slowest rank). Markdown on stdout.
"""
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

RUN_NAME = re.compile(r"^j3d(\d+)_(\d+)pt_(.+)_r(\d+)\.json$")


def load_runs(runs_dir):
    """{(local, points): {form: {"overlap": [...], "resident": [...], "ratio": [...],
    "update": [...], "fraction": [...], "stream": [...], "stream_ratio": [...]}}}"""
    runs = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for path in sorted(Path(runs_dir).glob("*.json")):
        match = RUN_NAME.match(path.name)
        if not match:
            continue
        local, points, form, _ = match.groups()
        samples = runs[(int(local), int(points))][form]
        for variant in json.loads(path.read_text())["variants"]:
            if variant["variant"] == "conventional_overlap":
                samples["overlap"].append(variant["summary_us"]["median"])
            elif variant["variant"] == "resident":
                samples["resident"].append(variant["summary_us"]["median"])
                samples["ratio"].append(variant["baseline_over_this_median"])
                samples["update"].append(variant["update"]["us_per_iteration"])
                samples["fraction"].append(variant["update"]["fraction_of_copy_rate"])
            elif variant["variant"] == "stream":
                samples["stream"].append(variant["summary_us"]["median"])
                samples["stream_ratio"].append(variant["baseline_over_this_median"])
    return runs


def median(values, digits):
    return f"{statistics.median(values):.{digits}f}" if values else "–"


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    runs = load_runs(argv[1])
    if not runs:
        sys.exit(f"resident_forms_table.py: no runs in {argv[1]}")
    forms = sorted({form for by_form in runs.values() for form in by_form})
    streams = any(s["stream"] for by_form in runs.values() for s in by_form.values())
    header = "| cells per rank | points |"
    for form in forms:
        header += (f" {form}: conventional_overlap | {form}: resident | {form}: ratio |"
                   f" {form}: update alone (of copy rate) |")
        header += f" {form}: stream (ratio) |" if streams else ""
    print(header)
    print("| --- | --- |" + (" ---: |" * (5 if streams else 4)) * len(forms))
    for (local, points) in sorted(runs, key=lambda k: (-k[0], k[1])):
        row = f"| {local}³ | {points} |"
        for form in forms:
            s = runs[(local, points)][form]
            row += (f" {median(s['overlap'], 1)} | {median(s['resident'], 1)} |"
                    f" {median(s['ratio'], 2)}× | {median(s['update'], 1)}"
                    f" ({median(s['fraction'], 2)}) |")
            if streams:
                row += f" {median(s['stream'], 1)} ({median(s['stream_ratio'], 2)}×) |"
        print(row)
    rounds = max(len(s["resident"]) for by_form in runs.values() for s in by_form.values())
    print(f"\nµs per iteration, medians over {rounds} round(s) of each run's median.")


if __name__ == "__main__":
    main(sys.argv)
