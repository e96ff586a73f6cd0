#!/usr/bin/env python3
"""jacobi2d's trees side by side, from the JSON files one step of a record's device call wrote
(scripts/device/device_call_common.sh, jacobi2d_form) as SHAPE_cNCCHECK_TREE_rROUND.json
(docs/results/h200/2026-12-03_jacobi2d_interior_deal).

  scripts/tables/jacobi2d_trees_table.py STEP_DIR [TREE...]

One row per shape, norm interval and variant; per tree (TREE... in that order, else every tree
found, sorted) its median µs per iteration in each round (the slowest rank's), then the update
alone in each round. A run that wrote no JSON, or whose check failed, is marked. Markdown on
stdout.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from named_runs import named_variants  # noqa: E402

NAME = re.compile(r"^(.+)_c(\d+)_([a-z0-9]+)_r(\d+)\.json$")


def load(step_dir):
    """{(shape, nccheck, variant): {tree: {round: (median_us, update_us, identical)}}}."""
    runs = defaultdict(lambda: defaultdict(dict))
    for (shape, nccheck, tree, round_), variant in named_variants(step_dir, NAME):
        runs[(shape, int(nccheck), variant["variant"])][tree][int(round_)] = (
            variant["summary_us"]["median"], variant["update"]["us_per_iteration"],
            variant["check"]["identical"])
    return runs


def shape_key(shape):
    """Sorts 1024 before 1024x513 before 4096: by columns, then rows (a square's rows = its
    columns)."""
    nx, _, ny = shape.partition("x")
    return int(nx), int(ny or nx)


def rounds_of(by_round, field):
    """'a / b / c' of one field over the rounds, '!' after a run whose check failed."""
    return " / ".join(f"{run[field]:.2f}{'' if run[2] else '!'}"
                      for _, run in sorted(by_round.items()))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    trees = sys.argv[2:] or sorted({tree for by_tree in runs.values() for tree in by_tree})
    print("| shape | norm every | variant | " +
          " | ".join(f"{tree}" for tree in trees) + " | " +
          " | ".join(f"update, {tree}" for tree in trees) + " |")
    print("| --- | ---: | --- |" + " ---: |" * (2 * len(trees)))
    for shape, nccheck, variant in sorted(runs, key=lambda k: (shape_key(k[0]), k[1], k[2])):
        by_tree = runs[(shape, nccheck, variant)]
        cells = [rounds_of(by_tree.get(tree, {}), 0) or "—" for tree in trees]
        cells += [rounds_of(by_tree.get(tree, {}), 1) or "—" for tree in trees]
        print(f"| {shape} | {nccheck} | {variant} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
