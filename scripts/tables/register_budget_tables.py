#!/usr/bin/env python3
"""The tables of docs/results/h200x2/2026-11-30_resident_registers: Jacobi3D's resident kernel at
each register budget beside the conventional loops, and the kernels Nsight Compute timed.

  scripts/tables/register_budget_tables.py budgets BUDGETS_DIR
  scripts/tables/register_budget_tables.py kernels DETAILS_FILE...

budgets: the JSON files that the record's `budgets` step wrote, j3d<local>_<points>pt_<run>_r<round>
.json, <run> being `conventional` (both conventional loops) or r<registers> (the resident variant
at that budget). Each cell is the median over the rounds of a run's median, µs per iteration (the
slowest rank), then the update alone and its fraction of the copy rate of the same run.
kernels: each kernel of each `ncu --page details` print (named by its call's folder and its
file): its time (for the resident kernel, a whole launch of its iterations), DRAM throughput,
registers a thread, achieved occupancy and, where the print has them, the sectors of local
memory (spills) loaded and stored. Markdown on stdout.
"""
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

RUN_NAME = re.compile(r"^j3d(\d+)_(\d+)pt_(conventional|r\d+)_r(\d+)\.json$")
GRID = re.compile(r"cooperative grid: (\d+) blocks")


def load_budgets(budgets_dir):
    """{(local, points): {column: [(iteration_us, update_us, fraction, blocks), ...]}}"""
    runs = defaultdict(lambda: defaultdict(list))
    for path in sorted(Path(budgets_dir).glob("*.json")):
        match = RUN_NAME.match(path.name)
        if not match:
            continue
        local, points, run, _ = match.groups()
        for variant in json.loads(path.read_text())["variants"]:
            column = variant["variant"] if run == "conventional" else run[1:]
            grid = GRID.search(variant["launch"])
            runs[(int(local), int(points))][column].append(
                (variant["summary_us"]["median"], variant["update"]["us_per_iteration"],
                 variant["update"]["fraction_of_copy_rate"], grid.group(1) if grid else ""))
    return runs


def cell(samples):
    iteration = statistics.median(s[0] for s in samples)
    update = statistics.median(s[1] for s in samples)
    fraction = statistics.median(s[2] for s in samples)
    blocks = samples[0][3]
    grid = f", {blocks} blocks" if blocks else ""
    return f"{iteration:.1f} ({update:.1f}, {fraction:.2f}{grid})"


def budgets_table(budgets_dir):
    runs = load_budgets(budgets_dir)
    if not runs:
        sys.exit(f"register_budget_tables.py: no budget runs in {budgets_dir}")
    budgets = sorted({c for columns in runs.values() for c in columns if c.isdigit()},
                     key=int, reverse=True)
    loops = ["conventional", "conventional_overlap"]
    print("| cells per rank | points | " + " | ".join(loops) + " | " +
          " | ".join(f"resident, {b} registers" for b in budgets) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in loops + budgets) + " |")
    for (local, points) in sorted(runs, key=lambda k: (-k[0], k[1])):
        columns = runs[(local, points)]
        cells = [cell(columns[c]) if c in columns else "–" for c in loops + budgets]
        print(f"| {local}³ | {points} | " + " | ".join(cells) + " |")
    print("\nEach cell: µs per iteration (the update alone in µs, its fraction of the copy rate"
          "[, the resident grid]).")


KERNEL = re.compile(r"::(\w+)<[^>]*>\(.*\) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\)")
METRICS = {
    "Duration": "time",
    "DRAM Throughput": "dram",
    "Registers Per Thread": "registers",
    "Achieved Occupancy": "occupancy",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum": "spill_loads",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum": "spill_stores",
}


def kernels_of(details):
    """Each kernel of one ncu details print, in order, as {name, grid, metric: value}."""
    kernels = []
    for line in Path(details).read_text().splitlines():
        match = KERNEL.search(line)
        if match:
            grid = "x".join(match.group(i) for i in (2, 3, 4) if match.group(i) != "1")
            block = "x".join(match.group(i) for i in (5, 6, 7) if match.group(i) != "1")
            kernels.append({"name": match.group(1), "grid": f"{grid} of {block}"})
            continue
        if not kernels:
            continue
        for label, key in METRICS.items():
            if line.strip().startswith(label + " ") and key not in kernels[-1]:
                kernels[-1][key] = line.split()[-1].replace(",", "")
    return kernels


def kernels_table(details_files):
    print("| print | kernel | grid | time, µs | DRAM throughput, % | registers | achieved "
          "occupancy, % | local sectors loaded / stored |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for details in details_files:
        path = Path(details)
        label = f"{path.parent.parent.name}/{path.name.replace('.details.txt', '')}"
        for kernel in kernels_of(details):
            time = float(kernel.get("time", "nan")) / 1000
            spills = "–"
            if "spill_loads" in kernel:
                spills = f"{int(kernel['spill_loads']):,} / {int(kernel['spill_stores']):,}"
            print(f"| {label} | {kernel['name']} | {kernel['grid']} | {time:.1f} | "
                  f"{kernel.get('dram', '–')} | {kernel.get('registers', '–')} | "
                  f"{kernel.get('occupancy', '–')} | {spills} |")


def main(argv):
    if len(argv) >= 3 and argv[1] == "budgets":
        budgets_table(argv[2])
    elif len(argv) >= 3 and argv[1] == "kernels":
        kernels_table(argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
