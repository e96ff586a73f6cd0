#!/usr/bin/env python3
"""Summary of scripts/bench/bench_element_types.sh: per cube, transport and strategy, the median over the
rounds of each build's median exchange time (double, float, before), and the ratios the issue
asks about: double against the tree before element types (no speed lost), and float against
double (half the bytes).

  element_types_summary.py DIR   (the element_types folder: {build}_{cube}_round{r}.json)
"""
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from halo_bench_rounds import read_rounds  # noqa: E402


def main(folder: Path) -> None:
    medians, gpus = read_rounds(folder, "before|double|float")
    print("element types: median exchange time (us), the median over rounds of each run's "
          "median, slowest rank")
    print("GPUs: " + (", ".join(sorted(gpus)) or "unknown"))
    header = (f"{'cube':>5} {'transport':<10} {'strategy':<14} {'before':>9} {'double':>9} "
              f"{'float':>9} {'double/before':>14} {'float/double':>13} rounds")
    print(header)
    rows = sorted({key[:3] for key in medians})
    for cube, transport, strategy in rows:
        value = {}
        for build in ("before", "double", "float"):
            runs = medians.get((cube, transport, strategy, build), [])
            value[build] = statistics.median(runs) if runs else None
        rounds = len(medians.get((cube, transport, strategy, "double"), []))

        def text(x):
            return f"{x:9.1f}" if x is not None else f"{'-':>9}"

        def ratio(a, b):
            return f"{a / b:.3f}" if a is not None and b else "-"

        print(f"{cube:>5} {transport:<10} {strategy:<14} {text(value['before'])} "
              f"{text(value['double'])} {text(value['float'])} "
              f"{ratio(value['double'], value['before']):>14} "
              f"{ratio(value['float'], value['double']):>13} {rounds}")


    print("\neach round's median (us), in round order: how far rounds of one build differ")
    for cube, transport, strategy in rows:
        parts = []
        for build in ("before", "double", "float"):
            runs = medians.get((cube, transport, strategy, build), [])
            parts.append(f"{build} " + " ".join(f"{x:.1f}" for x in runs))
        print(f"{cube:>5} {transport:<10} {strategy:<14} " + " | ".join(parts))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
