#!/usr/bin/env python3
"""Jacobi3D's trees side by side, from the JSON files one step of a record's device call wrote
(scripts/device/device_call_common.sh, jacobi3d_trees) as j3dSIZE_POINTSpt_TREE_rROUND.json
(docs/results/h200/2026-12-03_fused_sends).

  scripts/tables/jacobi3d_trees_table.py STEP_DIR [TREE...]

One row per size, stencil and variant; per tree (TREE... in that order, else every tree found,
sorted) its median µs per iteration in each round (the slowest rank's), then the last tree's
change against the first, from the medians over the rounds. A run whose check failed is marked
with '!'; a run that checked nothing (sizes above 64^3) is as it is. Markdown on stdout.
"""
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from named_runs import named_variants  # noqa: E402

NAME = re.compile(r"^j3d(\d+)_(\d+)pt_([a-z0-9]+)_r(\d+)\.json$")


def load(step_dir):
    """{(size, points, variant): {tree: {round: (median_us, identical)}}}."""
    runs = defaultdict(lambda: defaultdict(dict))
    for (size, points, tree, round_), variant in named_variants(step_dir, NAME):
        check = variant.get("check") or {}
        runs[(int(size), int(points), variant["variant"])][tree][int(round_)] = (
            variant["summary_us"]["median"], check.get("identical", True))
    return runs


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    trees = sys.argv[2:] or sorted({tree for by_tree in runs.values() for tree in by_tree})
    print("| cells per rank | points | variant | " + " | ".join(trees) +
          f" | {trees[-1]} against {trees[0]} |")
    print("| ---: | ---: | --- |" + " ---: |" * (len(trees) + 1))
    for size, points, variant in sorted(runs):
        by_tree = runs[(size, points, variant)]
        cells = []
        for tree in trees:
            by_round = by_tree.get(tree, {})
            cells.append(" / ".join(f"{us:.2f}{'' if same else '!'}"
                                    for _, (us, same) in sorted(by_round.items())) or "—")
        first = [us for us, _ in by_tree.get(trees[0], {}).values()]
        last = [us for us, _ in by_tree.get(trees[-1], {}).values()]
        change = (f"{100 * (statistics.median(last) / statistics.median(first) - 1):+.1f} %"
                  if first and last else "—")
        print(f"| {size}³ | {points} | {variant} | " + " | ".join(cells) + f" | {change} |")


if __name__ == "__main__":
    main()
