#!/usr/bin/env python3
"""The tables of a node-lines results folder (docs/results/h200/2026-11-29_node_lines), from the
raw JSON that its device_call.sh wrote: per call folder, halo_bench's median µs per exchange
(slowest rank) for each strategy, cube and route (bench/), the tree before the lines against
this one (benchab/), and Jacobi3D's median µs per iteration for each stencil, variant and route
(jacobi/). A cell is the median over the rounds, with each round's median after it.

    scripts/tables/node_lines_tables.py RESULTS_DIR
"""
import json
import pathlib
import re
import statistics
import sys

BENCH = re.compile(r"^(?P<strategy>\w+?)_(?P<cube>\d+)_lines(?P<lines>\d+)_r(?P<round>\d+)$")
BENCHAB = re.compile(r"^(?P<tree>before|after)_(?P<cube>\d+)_r(?P<round>\d+)$")
JACOBI = re.compile(r"^j32_(?P<points>\d+)pt_lines(?P<lines>\d+)_r(?P<round>\d+)$")


def route(lines):
    return "lines" if int(lines) > 0 else "counted"


def cell(values):
    rounds = " ".join(f"{v:.1f}" for v in values)
    return f"{statistics.median(values):.1f} ({rounds})" if len(values) > 1 else f"{values[0]:.1f}"


def gather(folder, pattern, key_of, medians_of):
    rows = {}
    for path in sorted(folder.glob("*.json")):
        match = pattern.match(path.stem)
        if not match:
            continue
        for key, value in medians_of(json.loads(path.read_text()), match):
            rows.setdefault(key_of(match) + key, []).append(value)
    return rows


def halo_bench_medians(report, _match):
    for strategy in report["strategies"]:
        yield (), strategy["summary_us"]["median"]


def jacobi_medians(report, _match):
    for variant in report["variants"]:
        yield (variant["variant"],), variant["summary_us"]["median"]


def print_table(title, header, rows):
    if not rows:
        return
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * (len(header) - 1) + " ---: |")
    for key in sorted(rows):
        print("| " + " | ".join(str(k) for k in key) + " | " + cell(rows[key]) + " |")


def main(root):
    for call in sorted(p for p in root.iterdir() if p.is_dir()):
        bench = gather(call / "bench", BENCH,
                       lambda m: (m["strategy"], int(m["cube"]), route(m["lines"])),
                       halo_bench_medians)
        print_table(f"{call.name}: halo_bench over node, µs per exchange",
                    ["strategy", "cube", "route", "median"], bench)
        benchab = gather(call / "benchab", BENCHAB, lambda m: ("resident", int(m["cube"]), m["tree"]),
                         halo_bench_medians)
        print_table(f"{call.name}: halo_bench, the tree before the lines and this one, µs per exchange",
                    ["strategy", "cube", "tree", "median"], benchab)
        jacobi = gather(call / "jacobi", JACOBI, lambda m: (int(m["points"]), route(m["lines"])),
                        jacobi_medians)
        print_table(f"{call.name}: Jacobi3D 32^3 per rank, µs per iteration",
                    ["stencil", "route", "variant", "median"], jacobi)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    sys.exit(main(pathlib.Path(sys.argv[1])))
