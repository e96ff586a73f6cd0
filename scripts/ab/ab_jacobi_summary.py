#!/usr/bin/env python3
"""Summary of scripts/ab/ab_jacobi_trees.sh: per stencil and variant, each tree's time per Jacobi3D
iteration as the median over the rounds (and the min-max over the rounds) of each timed run's
median; the speed-up of each variant over the conventional loop within a tree (conventional /
variant, from the same run of each round); and each tree against the first (time of the tree /
time of the first tree, paired round by round: below 1 the tree is faster).

  ab_jacobi_summary.py OUT_DIR

Reads OUT_DIR/trees.txt (tree order), settings.txt, check_NAME_sS.json and time_NAME_sS_rR.json
(haloflag_jacobi3d --json reports: variants[].summary_us.median, the median over the run's
repeats of the slowest rank's microseconds per iteration), prints Markdown and writes it to
OUT_DIR/summary.md. Python 3 standard library only.
"""
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

VARIANT_ORDER = ["conventional", "resident", "stream"]
TIMED = re.compile(r"time_(?P<tree>.+)_s(?P<stencil>7|27)_r(?P<round>\d+)\.json")
CHECK = re.compile(r"check_(?P<tree>.+)_s(?P<stencil>7|27)\.json")


def read_trees(out):
    """[(name, source, describe)] in the order of trees.txt; [] without the file."""
    path = out / "trees.txt"
    trees = []
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            fields += [""] * (3 - len(fields))
            trees.append((fields[0], fields[1], fields[2]))
    return trees


def read_settings(out):
    """settings.txt's 'key: value' lines as a dict."""
    path = out / "settings.txt"
    settings = {}
    if path.exists():
        for line in path.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip():
                settings[key.strip()] = value.strip()
    return settings


def load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        print(f"ab_jacobi_summary: skipping {path.name}: {error}", file=sys.stderr)
        return None


def spread(values, digits):
    """'median (min-max)' of values."""
    if not values:
        return "-"
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:.{digits}f}"
    return f"{middle:.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def variant_key(name):
    return (VARIANT_ORDER.index(name) if name in VARIANT_ORDER else len(VARIANT_ORDER), name)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: ab_jacobi_summary.py OUT_DIR  (the folder scripts/ab/ab_jacobi_trees.sh wrote)",
              file=sys.stderr)
        return 2
    out = Path(argv[1])
    if not out.is_dir():
        print(f"ab_jacobi_summary: {out} is not a directory", file=sys.stderr)
        return 2
    trees = read_trees(out)
    settings = read_settings(out)

    # times[(tree, stencil, variant)][round] = the run's median us per iteration
    times = defaultdict(dict)
    reports = {}  # (tree, stencil, round) -> report, for the heading
    found_trees = []
    for path in sorted(out.glob("time_*.json")):
        match = TIMED.fullmatch(path.name)
        if not match:
            continue
        report = load(path)
        if report is None:
            continue
        tree, stencil, rnd = match["tree"], int(match["stencil"]), int(match["round"])
        if tree not in found_trees:
            found_trees.append(tree)
        reports[(tree, stencil, rnd)] = report
        for entry in report.get("variants", []):
            median = entry.get("summary_us", {}).get("median")
            if median is not None and median > 0:
                times[(tree, stencil, entry["variant"])][rnd] = median
    if not reports:
        print(f"ab_jacobi_summary: no time_NAME_sS_rR.json reports in {out}", file=sys.stderr)
        return 1
    order = [name for name, _, _ in trees if name in found_trees]
    order += [name for name in found_trees if name not in order]
    describe = {name: (source, desc) for name, source, desc in trees}
    stencils = sorted({key[1] for key in reports})
    variants = sorted({key[2] for key in times}, key=variant_key)
    rounds = sorted({key[2] for key in reports})
    base = order[0]

    lines = [f"# Jacobi3D A/B: {', '.join(order)}", ""]
    tree_text = []
    for name in order:
        source, desc = describe.get(name, ("?", "?"))
        tree_text.append(f"**{name}** `{source}` (`{desc}`)")
    lines.append("- trees, in the order each round runs them (the first is the baseline): "
                 + ", ".join(tree_text))
    # The heading's facts from the baseline's first run (every run's parameters are compared
    # with them below).
    first = reports[min(key for key in reports if key[0] == base)]
    parameters = first.get("parameters", {})
    problem = first.get("problem", {})
    backend = first.get("backend", {})
    machine = first.get("machine", {})
    placement = settings.get("placement", "")
    if "MPS" in placement:
        lines.append(f"- **{placement}**")
    elif placement:
        lines.append(f"- {placement}")
    for gpu in machine.get("gpus", []):
        lines.append(f"  - {gpu.get('description', gpu.get('name', '?'))}")
    if any(report.get("backend", {}).get("emulated_on_host") for report in reports.values()):
        lines.append(f"- **backend {backend.get('name', '?')}: emulated on the host, not GPU "
                     "results**")
    else:
        lines.append(f"- backend {backend.get('name', '?')}; MPI: {machine.get('mpi_library', '?')}")
    local = problem.get("local_size", parameters.get("size", "?"))
    if isinstance(local, list):
        local = "x".join(str(v) for v in local)
    lines.append(
        f"- {machine.get('ranks', settings.get('ranks', '?'))} ranks, {local} cells per rank, "
        f"{parameters.get('precision', '?')}, transport {parameters.get('transport', '?')}; "
        f"{parameters.get('iterations', '?')} iterations per timed run, "
        f"{parameters.get('warmup', '?')} warm-up and {parameters.get('repeats', '?')} timed runs "
        f"per variant (the variants alternating); {len(rounds)} round(s), the trees in turn "
        "within each")
    if settings.get("options of every run"):
        lines.append(f"- options of every run: `{settings['options of every run']}`"
                     + (f", timed runs add `{settings['timed runs add']}`"
                        if settings.get("timed runs add") else ""))
    if settings.get("mpiexec flags"):
        lines.append(f"- mpiexec flags: `{settings['mpiexec flags']}`")
    # Every timed run should share the first one's parameters but the stencil.
    differing = set()
    for (tree, _, rnd), report in sorted(reports.items()):
        for key, value in report.get("parameters", {}).items():
            if key not in ("stencil",) and parameters.get(key) != value:
                differing.add(f"{key} ({tree}, round {rnd}: {value!r} against {parameters.get(key)!r})")
    if differing:
        lines.append("- **parameters differ between runs:** " + "; ".join(sorted(differing)))

    # The checks.
    check_text = []
    for name in order:
        for stencil in stencils:
            path = out / f"check_{name}_s{stencil}.json"
            report = load(path) if path.exists() else None
            if report is None:
                check_text.append(f"{name} {stencil}-point not checked")
                continue
            results = [(e["variant"], e.get("check", {}).get("identical"))
                       for e in report.get("variants", [])]
            bad = [v for v, identical in results if identical is not True]
            check_text.append(f"{name} {stencil}-point " +
                              ("identical" if not bad else "**DIFFERS: " + ", ".join(bad) + "**"))
    lines.append("- checked bit for bit against the single-rank reference before timing: "
                 + "; ".join(check_text))
    lines.append("- time: µs per iteration, the slowest rank (each timed run's time / iterations, "
                 "max over ranks), each run's median over its repeats; a cell is the median over "
                 "the rounds (min–max over the rounds). conv/variant: conventional's time / the "
                 "variant's, from the same run, per round. X/" + base + ": X's time / " + base +
                 "'s, paired round by round (below 1: X is faster)")
    lines.append("")

    header = ["stencil", "variant"] + [f"{name} µs" for name in order]
    header += [f"{name} conv/variant" for name in order]
    header += [f"{name}/{base}" for name in order[1:]] + ["rounds"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| " + " | ".join(["---"] * 2 + ["--:"] * (len(header) - 2)) + " |")
    for stencil in stencils:
        for variant in variants:
            if not any(times.get((name, stencil, variant)) for name in order):
                continue
            row = [str(stencil), variant]
            counts = []
            for name in order:
                per_round = times.get((name, stencil, variant), {})
                row.append(spread(list(per_round.values()), 2))
                counts.append(str(len(per_round)))
            for name in order:
                if variant == "conventional":
                    row.append("—")
                    continue
                conventional = times.get((name, stencil, "conventional"), {})
                mine = times.get((name, stencil, variant), {})
                row.append(spread([conventional[r] / mine[r] for r in mine if r in conventional], 3))
            for name in order[1:]:
                baseline = times.get((base, stencil, variant), {})
                mine = times.get((name, stencil, variant), {})
                row.append(spread([mine[r] / baseline[r] for r in mine if r in baseline], 3))
            row.append("/".join(counts) if len(set(counts)) > 1 else counts[0])
            lines.append("| " + " | ".join(row) + " |")

    lines += ["", "Each round's median (µs per iteration), in round order:", ""]
    lines.append("| stencil | variant | " + " | ".join(order) + " |")
    lines.append("| --- | --- | " + " | ".join(["---"] * len(order)) + " |")
    for stencil in stencils:
        for variant in variants:
            if not any(times.get((name, stencil, variant)) for name in order):
                continue
            cells = []
            for name in order:
                per_round = times.get((name, stencil, variant), {})
                cells.append(" ".join(f"{per_round[r]:.2f}" if r in per_round else "-"
                                      for r in rounds))
            lines.append(f"| {stencil} | {variant} | " + " | ".join(cells) + " |")

    text = "\n".join(lines) + "\n"
    (out / "summary.md").write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
