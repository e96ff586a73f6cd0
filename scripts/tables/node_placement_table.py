#!/usr/bin/env python3
"""The node transport's placement by shape: halo_bench reports of one config per cube, run once
per --node-placement, as a table of each strategy's slowest-rank median per placement.

    scripts/tables/node_placement_table.py [-o FILE] SOURCE...

SOURCE: halo_bench reports given as files, folders or .tar.gz archives
(scripts/tables/headline_sources.py); scripts/bench/bench_node_placement.sh writes them into one archive.
Each row is a strategy at a cube; each placement column holds its median in microseconds with
p10-p90, and the last columns the first placement's median over each other's (> 1: the other is
faster), the node sends that went through the buffer (summed over the ranks) and the model's
prediction where the run carries one. Exit status 1, naming the source, for data it cannot read or
that contradicts itself (a row measured twice for one placement).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from headline_sources import HALO_BENCH_FORMAT, SourceError, load_sources  # noqa: E402
from model_report import ReportError, cube_of  # noqa: E402


def placement_of(report):
    parameters = report.get("parameters", {})
    placement = parameters.get("node_placement", "by-shape")
    if placement == "by-shape":
        placement += f":{parameters.get('node_buffered_from_bytes', '?')}"
    return placement


def collect(sources):
    """{(strategy, cube): {placement: entry}}, the placements in order of first appearance, and a
    description of the machine."""
    rows, placements, machine = {}, [], ""
    for source in sources:
        if source.format != HALO_BENCH_FORMAT:
            continue
        report = source.data
        cube = cube_of(report, source.name)
        placement = placement_of(report)
        if placement not in placements:
            placements.append(placement)
        if not machine:
            gpus = report.get("machine", {}).get("gpus") or ["no GPU (host backend)"]
            machine = ", ".join(sorted({str(gpu.get("name", gpu)) if isinstance(gpu, dict)
                                        else str(gpu) for gpu in gpus}))
        for entry in report.get("strategies", []):
            if not entry.get("summary_us"):
                continue
            cell = rows.setdefault((entry["name"], cube), {})
            if placement in cell:
                raise SourceError(f"{source.name}: {entry['name']} at cube {cube} with placement "
                                  f"{placement} is in two runs")
            cell[placement] = entry
    # direct first (the reference of the ratios), then by shape, then buffered.
    order = {"direct": 0, "by-shape": 1, "buffered": 2}
    placements.sort(key=lambda p: (order.get(p.split(":")[0], 3), p))
    return rows, placements, machine


def table(rows, placements):
    head = ["strategy", "cube"] + [f"{p} µs (p10-p90)" for p in placements]
    head += [f"{placements[0]} / {p}" for p in placements[1:]]
    head += [f"sends through buffer ({p})" for p in placements]
    head += [f"model µs ({p})" for p in placements]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * 2 + " ---: |" * (len(head) - 2)]
    for (name, cube) in sorted(rows, key=lambda key: (key[1], key[0])):
        cell = rows[(name, cube)]
        medians = [cell[p]["summary_us"]["median"] if p in cell else None for p in placements]
        values = [name, str(cube)]
        for p in placements:
            s = cell.get(p, {}).get("summary_us")
            values.append(f"{s['median']:.1f} ({s['p10']:.1f}-{s['p90']:.1f})" if s else "—")
        for m in medians[1:]:
            values.append(f"{medians[0] / m:.2f}" if medians[0] and m else "—")
        for p in placements:
            values.append(str(cell[p].get("node_sends_through_buffer", "—")) if p in cell else "—")
        for p in placements:
            predicted = (cell.get(p, {}).get("prediction") or {}).get("predicted_us")
            values.append(f"{predicted:.1f}" if predicted else "—")
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="Markdown file (default: standard output)")
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args(argv)
    try:
        rows, placements, machine = collect(load_sources(args.sources))
    except (SourceError, ReportError) as error:
        print(f"node_placement_table.py: {error}", file=sys.stderr)
        return 1
    if not rows:
        print("node_placement_table.py: no timed halo_bench rows in " + ", ".join(args.sources),
              file=sys.stderr)
        return 1
    text = (f"# Node placement by shape\n\nSlowest-rank medians per exchange over the node "
            f"transport, one run per cube and placement; {machine}.\n\n"
            f"{table(rows, placements)}\n")
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
