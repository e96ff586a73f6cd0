#!/usr/bin/env python3
"""The update-rate tables of a before/after record: each variant's update alone (no exchange),
tree before against tree after, from the JSON files of the stencil examples that one device call
wrote into RATES_DIR as jacobi3d_<local>_<stencil>_<tree>_r<round>.json and
jacobi2d_<nx>x<ny>_<tree>_r<round>.json, optionally prefixed mps_
(docs/results/h200/2026-11-29_column_updates).

  scripts/tables/update_rate_tables.py RATES_DIR
  scripts/tables/update_rate_tables.py --iterations RATES_DIR
  scripts/tables/update_rate_tables.py --after TREE RATES_DIR
  scripts/tables/update_rate_tables.py --before TREE --after TREE RATES_DIR

Each cell is the median over the rounds of that tree's per-run median (µs per iteration, the
slowest rank) and its fraction of the copy rate measured in the same run; "before / after" is the
ratio of those medians. --iterations: the whole iteration instead (runs whose ranks shared a GPU,
where the update's rate says nothing). --after TREE: the runs of the tree named TREE (letters and
digits) stand for "after", where a call ran more than two trees
(docs/results/h200/2026-12-01_column_prefetch); --before TREE likewise for "before". Markdown on
stdout.
"""
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

NAME = re.compile(r"^(mps_)?(jacobi3d|jacobi2d)_(.+)_([a-z0-9]+)_r(\d+)\.json$")


def load(rates_dir):
    """{(program, shape): {tree: {variant: [(update_us, fraction, iteration_us), ...]}}}; a run
    whose name starts with mps_ (ranks sharing a GPU) has its shape end in "_mps"."""
    runs = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for path in sorted(Path(rates_dir).glob("*.json")):
        match = NAME.match(path.name)
        if not match:
            continue
        shared, program, shape, tree, _ = match.groups()
        if shared:
            shape += "_mps"
        record = json.loads(path.read_text())
        for variant in record["variants"]:
            update = variant["update"]
            runs[(program, shape)][tree][variant["variant"]].append(
                (update["us_per_iteration"], update["fraction_of_copy_rate"],
                 variant["summary_us"]["median"]))
    return runs


def shape_label(program, shape):
    if shape.endswith("_mps"):
        return shape_label(program, shape[:-4]) + ", 2 ranks on the GPU under MPS"
    if program == "jacobi3d":
        local, stencil = shape.split("_")
        return f"{local}³ cells, {stencil} points"
    return shape.replace("x", " × ") + " cells, norm every 100"


def paired(runs, program, shared, pair):
    """(shape, variant, before samples, after samples) of `program`, in order of size, "before"
    and "after" the trees named in `pair`; runs whose ranks shared a GPU only where `shared`."""
    before_tree, after_tree = pair
    for (name, shape), trees in sorted(runs.items(), key=lambda item: sort_key(*item[0])):
        if name != program or before_tree not in trees or after_tree not in trees:
            continue
        if shape.endswith("_mps") and not shared:
            continue
        for variant, after in trees[after_tree].items():
            before = trees[before_tree].get(variant)
            if before:
                yield shape, variant, before, after


def median_of(samples, index):
    return statistics.median(sample[index] for sample in samples)


def markdown(heading, columns, rows):
    """A table under its heading: columns as (name, right-aligned)."""
    lines = [f"### {heading}", "", "| " + " | ".join(name for name, _ in columns) + " |",
             "| " + " | ".join("---:" if right else "---" for _, right in columns) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def table(runs, program, heading, pair):
    """The update alone; runs whose ranks shared a GPU are left out (their rate says nothing)."""
    columns = [("problem per rank", False), ("variant", False), ("update before, µs", True),
               ("update after, µs", True), ("before / after", True),
               ("fraction of the copy rate, before → after", False),
               ("iteration before → after, µs", False), ("rounds", True)]
    rows = []
    for shape, variant, before, after in paired(runs, program, False, pair):
        b, a = median_of(before, 0), median_of(after, 0)
        rows.append([shape_label(program, shape), variant, f"{b:.1f}", f"{a:.1f}", f"{b / a:.2f}×",
                     f"{median_of(before, 1):.2f} → {median_of(after, 1):.2f}",
                     f"{median_of(before, 2):.1f} → {median_of(after, 2):.1f}",
                     str(min(len(before), len(after)))])
    return markdown(heading, columns, rows)


def iteration_table(runs, program, heading, pair):
    """The whole iteration, runs whose ranks shared a GPU included."""
    columns = [("problem per rank", False), ("variant", False), ("iteration before, µs", True),
               ("iteration after, µs", True), ("before / after", True), ("rounds", True)]
    rows = []
    for shape, variant, before, after in paired(runs, program, True, pair):
        b, a = median_of(before, 2), median_of(after, 2)
        rows.append([shape_label(program, shape), variant, f"{b:.1f}", f"{a:.1f}", f"{b / a:.2f}×",
                     str(min(len(before), len(after)))])
    return markdown(heading, columns, rows)


def sort_key(program, shape):
    numbers = [int(n) for n in re.findall(r"\d+", shape)]
    return (program, numbers)


def main():
    arguments = sys.argv[1:]
    iterations = arguments[:1] == ["--iterations"]
    if iterations:
        arguments = arguments[1:]
    trees = {"--before": "before", "--after": "after"}
    while arguments[:1] in (["--before"], ["--after"]) and len(arguments) > 1:
        trees[arguments[0]] = arguments[1]
        arguments = arguments[2:]
    if len(arguments) != 1:
        sys.exit("usage: update_rate_tables.py [--iterations] [--before TREE] [--after TREE] "
                 "RATES_DIR")
    runs = load(arguments[0])
    if not runs:
        sys.exit(f"update_rate_tables.py: no jacobi*_<tree>_r<round>.json in {arguments[0]}")
    render = iteration_table if iterations else table
    for program, heading in (("jacobi3d", "Jacobi3D, double"), ("jacobi2d", "jacobi2d, float")):
        if any(name == program for name, _ in runs):
            print(render(runs, program, heading, (trees["--before"], trees["--after"])))


if __name__ == "__main__":
    main()
