#!/usr/bin/env python3
"""The tables of scripts/bench/bench_stencils.sh, from its runs/ folder: jacobi2d beside its peer (µs per
iteration, the peer's runtime / iterations from its CSV lines) and Jacobi3D's variants with their
ratios to the faster conventional loop, and every variant's update as a fraction of the copy
rate measured in the same run.

    scripts/tables/stencil_tables.py RUNS_DIR > summary.md
"""
import glob
import json
import os
import re
import sys

TARGETS_2D = {(1024, 1): 15, (1024, 100): 12, (4096, 1): 50, (4096, 100): 36,
              (16384, 1): 600, (16384, 100): 500}
PEERS = ["nccl", "nccl_overlap", "nccl_graphs", "multi_threaded_p2p_opt",
         "multi_threaded_copy_overlap"]
VARIANTS_2D = ["conventional_overlap", "stream", "resident"]


def load(path):
    with open(path) as f:
        return json.load(f)


def medians(report):
    return {v["variant"]: v["summary_us"]["median"] for v in report["variants"]}


def fractions(report):
    return {v["variant"]: v.get("update", {}).get("fraction_of_copy_rate")
            for v in report["variants"]}


def peer_us(runs, variant, n, c):
    path = os.path.join(runs, f"peer_{variant}_{n}_{c}.txt")
    if not os.path.exists(path):
        return None
    for line in open(path):
        fields = [x.strip() for x in line.split(",")]
        if len(fields) == 9 and fields[1] == str(n):
            return float(fields[7]) * 1e6 / int(fields[3])
    return None


def fmt(value, pattern="{:.1f}"):
    return "—" if value is None else pattern.format(value)


def jacobi2d_table(runs):
    rows = []
    for path in glob.glob(os.path.join(runs, "jacobi2d_*_*.json")):
        n, c = map(int, re.findall(r"jacobi2d_(\d+)_(\d+)\.json", path)[0])
        rows.append((n, c, load(path)))
    if not rows:
        return
    rows.sort(key=lambda r: (r[0], r[1]))
    print("## jacobi2d beside NVIDIA's multi-GPU Jacobi (µs per iteration, slowest rank, median)\n")
    print("| nx = ny | nccheck | " + " | ".join(VARIANTS_2D) + " | best haloflag | target | "
          + " | ".join(PEERS) + " | best peer | peer / haloflag | 1 GPU reference |")
    print("| --- " * (6 + len(VARIANTS_2D) + len(PEERS)) + "|")
    for n, c, report in rows:
        m = medians(report)
        ours = [m.get(v) for v in ("stream", "resident") if m.get(v) is not None]
        best = min(ours) if ours else None
        peers = [peer_us(runs, p, n, c) for p in PEERS]
        known = [p for p in peers if p is not None]
        best_peer = min(known) if known else None
        ratio = best_peer / best if best and best_peer else None
        print(f"| {n} | {c} | " + " | ".join(fmt(m.get(v)) for v in VARIANTS_2D) +
              f" | **{fmt(best)}** | ≤ {TARGETS_2D.get((n, c), '—')} | " +
              " | ".join(fmt(p) for p in peers) +
              f" | {fmt(best_peer)} | {fmt(ratio, '{:.2f}×')} | "
              f"{fmt(report['reference']['us_per_iteration'])} |")
    print("\n### jacobi2d: each variant's update alone, as a fraction of the copy rate (same run)\n")
    print("| nx = ny | nccheck | copy rate GB/s | " + " | ".join(VARIANTS_2D) + " |")
    print("| --- " * (3 + len(VARIANTS_2D)) + "|")
    for n, c, report in rows:
        f = fractions(report)
        print(f"| {n} | {c} | {report['copy_rate']['bytes_per_second'] * 1e-9:.0f} | " +
              " | ".join(fmt(f.get(v), "{:.2f}") for v in VARIANTS_2D) + " |")
    print()


def jacobi3d_table(runs):
    rows = []
    for path in glob.glob(os.path.join(runs, "jacobi3d_*_*.json")):
        local, stencil = map(int, re.findall(r"jacobi3d_(\d+)_(\d+)\.json", path)[0])
        rows.append((local, stencil, load(path)))
    if not rows:
        return
    rows.sort(key=lambda r: (r[0], r[1]))
    names = ["conventional", "conventional_overlap", "resident", "stream"]
    print("## Jacobi3D (µs per iteration, slowest rank, median; ratios against the faster "
          "conventional loop of the same run)\n")
    print("| cells per rank | stencil | " + " | ".join(names) +
          " | resident ratio | stream ratio | update fraction of copy rate (" + ", ".join(names) + ") |")
    print("| --- " * (5 + len(names)) + "|")
    for local, stencil, report in rows:
        m = medians(report)
        f = fractions(report)
        conventional = [m[v] for v in ("conventional", "conventional_overlap") if v in m]
        base = min(conventional) if conventional else None
        ratio = lambda v: base / m[v] if base and m.get(v) else None
        print(f"| {local}³ | {stencil} | " + " | ".join(fmt(m.get(v)) for v in names) +
              f" | {fmt(ratio('resident'), '{:.2f}×')} | {fmt(ratio('stream'), '{:.2f}×')} | " +
              ", ".join(fmt(f.get(v), "{:.2f}") for v in names) + " |")
    print()


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else "."
    jacobi2d_table(runs)
    jacobi3d_table(runs)


if __name__ == "__main__":
    main()
