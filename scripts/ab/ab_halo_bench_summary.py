#!/usr/bin/env python3
"""Summary of scripts/ab/ab_halo_bench_trees.sh: per cube, transport and strategy, the median over
the rounds of each build's median exchange time (slowest rank), after/before, and the before
build's own spread between rounds (max/min - 1). A row keeps its speed when after/before is within
3 % or within that spread, whichever is larger.

  ab_halo_bench_summary.py DIR   (the ab_halo_bench folder: {before,after}_{cube}_round{r}[_nccl].json)
"""
import statistics
import sys
from pathlib import Path

# The reader of halo_bench rounds lives with the other result readers in scripts/tables/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tables"))
from halo_bench_rounds import read_rounds  # noqa: E402


def main(folder: Path) -> None:
    medians, gpus = read_rounds(folder, "before|after")
    print("before/after: median exchange time (us), the median over rounds of each run's median, "
          "slowest rank")
    print("GPUs: " + (", ".join(sorted(gpus)) or "unknown"))
    print(f"{'cube':>5} {'transport':<10} {'strategy':<15} {'before':>9} {'after':>9} "
          f"{'after/before':>13} {'before spread':>14} {'kept':>5} rounds")
    kept_all = True
    for cube, transport, strategy in sorted({key[:3] for key in medians}):
        before = medians.get((cube, transport, strategy, "before"), [])
        after = medians.get((cube, transport, strategy, "after"), [])
        if not before or not after:
            print(f"{cube:>5} {transport:<10} {strategy:<15} (one build only)")
            continue
        b, a = statistics.median(before), statistics.median(after)
        spread = max(before) / min(before) - 1.0
        kept = a / b <= 1.0 + max(0.03, spread)
        kept_all = kept_all and kept
        print(f"{cube:>5} {transport:<10} {strategy:<15} {b:9.1f} {a:9.1f} {a / b:13.3f} "
              f"{100 * spread:13.1f}% {'yes' if kept else 'NO':>5} {len(after)}")
    print("\nevery row kept its speed" if kept_all else "\nsome row lost speed: see 'kept'")
    print("\neach round's median (us), in round order")
    for key in sorted(medians):
        print(" ".join(str(k) for k in key) + ": " +
              ", ".join(f"{m:.1f}" for m in medians[key]))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
