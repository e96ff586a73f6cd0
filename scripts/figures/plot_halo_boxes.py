#!/usr/bin/env python3
"""Box plots of halo_bench's timed exchanges (like Fig. 13 of Elis et al. 2024): one panel per
report (cube size), one box per strategy, drawn from every sample the report carries
(`samples_us`), with each strategy's speedup over comb_fused from the same run.

    scripts/figures/plot_halo_boxes.py RUN_200.json RUN_400.json ... --out-dir DIR
        [--strategies NAME,NAME...] [--whiskers p10-p90|iqr] [--title TEXT] [--no-plot]

Writes into DIR:
  halo_boxes.png   the boxes: box from the 25th to the 75th percentile, the median as a line,
                   whiskers at p10 and p90 (default) or at the furthest sample within 1.5 IQR
                   of the box with the samples beyond it drawn as points (--whiskers iqr)
  halo_boxes.md    per cube and strategy: samples, median, quartiles, whisker ends, and
                   comb_fused's median / the strategy's median (> 1: faster than comb_fused)
  halo_boxes.json  the same numbers for other tools

Percentiles interpolate linearly between order statistics, as halo_bench computes them, so the
medians here are the medians of its table. Reports may be gzipped (.json.gz). Needs matplotlib
for the PNG (Debian: python3-matplotlib); like model_report.py it runs itself again with
/usr/bin/python3 when the interpreter running it lacks matplotlib and that one has it.
--no-plot needs only the standard library.
"""

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tables"))
# The report reader, cube detection, machine text and interpreter fallback are model_report's
# (scripts/tables/).
from model_report import (EXIT_NO_MATPLOTLIB, ReportError, cube_of, describe_machine,  # noqa: E402
                          load_pyplot, read_report, rerun_with_system_python)

TOOL = "plot_halo_boxes"
BASELINE = "comb_fused"
WHISKER_CHOICES = ("p10-p90", "iqr")
# Medians recomputed from the samples must match the report's summary to this relative error;
# a larger gap means the samples are not the ones the summary was made from.
SUMMARY_TOLERANCE = 1e-6


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Box plots of halo_bench's timed exchanges per cube and strategy (Fig. 13).")
    parser.add_argument("reports", nargs="+", type=Path,
                        help="halo_bench JSON reports (.json or .json.gz), one panel each")
    parser.add_argument("--out-dir", type=Path, required=True, help="folder for the outputs")
    parser.add_argument("--strategies",
                        help="comma-separated strategies to draw, in this order (default: every "
                        "strategy of the reports, in run order)")
    parser.add_argument("--whiskers", choices=WHISKER_CHOICES, default="p10-p90",
                        help="whisker ends: p10 and p90 (default), or 1.5 IQR beyond the box "
                        "with outliers drawn")
    parser.add_argument("--title", help="plot and table title")
    parser.add_argument("--no-plot", action="store_true",
                        help="write no PNG (no matplotlib needed)")
    return parser.parse_args(argv)


def percentile(ordered, fraction):
    """Linear interpolation between order statistics (numpy's default, halo_bench's)."""
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def box_of(samples, whiskers):
    ordered = sorted(samples)
    q1, median, q3 = (percentile(ordered, f) for f in (0.25, 0.5, 0.75))
    if whiskers == "p10-p90":
        low, high = percentile(ordered, 0.10), percentile(ordered, 0.90)
        outliers = []
    else:
        reach = 1.5 * (q3 - q1)
        inside = [value for value in ordered if q1 - reach <= value <= q3 + reach]
        low, high = inside[0], inside[-1]
        outliers = [value for value in ordered if value < low or value > high]
    return {"count": len(ordered), "median": median, "q1": q1, "q3": q3,
            "whisker_low": low, "whisker_high": high, "outliers": outliers,
            "min": ordered[0], "max": ordered[-1]}


def panel_label(cube, path, cubes):
    """"cube 200", or with the report's folder when several reports share a cube."""
    if cubes.count(cube) > 1:
        return f"cube {cube} ({path.parent.name}/{path.name})"
    return f"cube {cube}"


def wanted_strategies(args):
    if not args.strategies:
        return None
    names = [name.strip() for name in args.strategies.split(",") if name.strip()]
    if not names:
        raise ReportError(f"--strategies '{args.strategies}': no strategy named")
    return names


def collect(args):
    """One panel per report, in cube order: its boxes per strategy and ratios vs comb_fused."""
    wanted = wanted_strategies(args)
    loaded = []
    for path in args.reports:
        report = read_report(path)
        loaded.append((path, report, cube_of(report, path)))
    loaded.sort(key=lambda item: item[2])
    cubes = [cube for _, _, cube in loaded]

    panels = []
    for path, report, cube in loaded:
        by_name = {strategy.get("name"): strategy for strategy in report["strategies"]}
        names = wanted or list(by_name)
        missing = [name for name in names if name not in by_name]
        if missing:
            raise ReportError(f"{path}: no strategy {', '.join(missing)} (it has "
                              f"{', '.join(by_name)})")
        rows = []
        for name in names:
            rows.append(strategy_row(path, by_name[name], args.whiskers))
        baseline = by_name.get(BASELINE)
        baseline_median = None
        if baseline is not None and baseline.get("samples_us"):
            baseline_median = box_of(baseline["samples_us"], args.whiskers)["median"]
        for row in rows:
            if row["box"] and baseline_median:
                row["speedup_vs_comb_fused"] = baseline_median / row["box"]["median"]
        panels.append({"file": str(path), "cube": cube, "label": panel_label(cube, path, cubes),
                       "report": report, "rows": rows})
    return panels


def strategy_row(path, strategy, whiskers):
    name = strategy.get("name", "?")
    row = {"strategy": name, "verified": bool((strategy.get("verification") or {}).get("passed")),
           "box": None, "speedup_vs_comb_fused": None, "note": None}
    summary = strategy.get("summary_us")
    samples = strategy.get("samples_us")
    if summary is None:
        row["note"] = "not timed"
        return row
    if not samples:
        raise ReportError(f"{path}: strategy {name} has a summary but no samples_us (a report "
                          "from a halo_bench that did not write its samples: run it again)")
    if not all(isinstance(value, (int, float)) and math.isfinite(value) for value in samples):
        raise ReportError(f"{path}: strategy {name}: samples_us holds a value that is not a "
                          "finite number")
    box = box_of(samples, whiskers)
    reported = summary.get("median")
    if reported is not None and abs(box["median"] - reported) > SUMMARY_TOLERANCE * abs(reported):
        raise ReportError(f"{path}: strategy {name}: median of samples_us {box['median']:.3f} "
                          f"differs from summary_us.median {reported:.3f}")
    row["box"] = box
    return row


def number(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def whisker_text(whiskers):
    if whiskers == "p10-p90":
        return "whiskers at p10 and p90"
    return "whiskers at the furthest sample within 1.5 IQR of the box, samples beyond as points"


def markdown(args, panels, plot_name):
    title = args.title or "Halo exchange time per strategy: box plots"
    machines = sorted({describe_machine(panel["report"]) for panel in panels})
    first = panels[0]["report"]
    lines = [f"# {title}", ""]
    lines.append(f"- machine: {'; '.join(machines)}"
                 + (" — **the runs differ in machine or backend**" if len(machines) > 1 else ""))
    lines.append(f"- MPI: {(first.get('mpi') or {}).get('library', '?')}, "
                 f"{(first.get('mpi') or {}).get('ranks', '?')} ranks")
    lines.append("- runs: " + "; ".join(
        f"{panel['label']}: `{panel['file']}` ({panel['report'].get('date', '?')})"
        for panel in panels))
    lines.append(f"- boxes: 25th to 75th percentile, median marked, {whisker_text(args.whiskers)}")
    lines += ["", "Times in microseconds per exchange (the slowest rank's), over every timed "
              "exchange. vs comb_fused = comb_fused's median / this median from the same run "
              "(> 1: faster).", ""]
    lines.append("| cube | strategy | samples | median | q1 – q3 | whiskers | vs comb_fused |")
    lines.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for panel in panels:
        for row in panel["rows"]:
            name = row["strategy"] + ("" if row["verified"] else " (not verified)")
            box = row["box"]
            if box is None:
                lines.append(f"| {panel['label']} | {name} | - | {row['note']} | - | - | - |")
                continue
            speedup = row["speedup_vs_comb_fused"]
            ratio = "-" if speedup is None else f"{speedup:.2f}x"
            lines.append(
                f"| {panel['label']} | {name} | {box['count']} | {number(box['median'])} | "
                f"{number(box['q1'])} – {number(box['q3'])} | {number(box['whisker_low'])} – "
                f"{number(box['whisker_high'])} | {ratio} |")
    if plot_name:
        lines += ["", f"![time per exchange per strategy, box plots]({plot_name})"]
    return "\n".join(lines) + "\n"


def plot(pyplot, args, panels, path):
    width = min(4.6 * len(panels), 18)
    figure, axes_row = pyplot.subplots(1, len(panels), figsize=(width, 5.2), squeeze=False)
    for axes, panel in zip(axes_row[0], panels):
        drawn = [row for row in panel["rows"] if row["box"] is not None]
        stats = [{"med": row["box"]["median"], "q1": row["box"]["q1"], "q3": row["box"]["q3"],
                  "whislo": row["box"]["whisker_low"], "whishi": row["box"]["whisker_high"],
                  "fliers": row["box"]["outliers"], "label": tick_label(row)} for row in drawn]
        if stats:
            axes.bxp(stats, showfliers=args.whiskers == "iqr", patch_artist=True,
                     boxprops={"facecolor": "#cfe2f3"}, medianprops={"color": "black"},
                     flierprops={"marker": ".", "markersize": 3, "alpha": 0.5})
            axes.tick_params(axis="x", labelrotation=30, labelsize=8)
            for label in axes.get_xticklabels():
                label.set_horizontalalignment("right")
            baseline = next((row for row in drawn if row["strategy"] == BASELINE), None)
            if baseline is not None:
                axes.axhline(baseline["box"]["median"], color="gray", linestyle=":",
                             linewidth=1, label=f"{BASELINE} median")
            # The speedup over comb_fused above each box, so the ratio sits beside its spread.
            highest = [highest_drawn(row["box"], args.whiskers) for row in drawn]
            top = max(highest)
            for position, row in enumerate(drawn, start=1):
                if row["speedup_vs_comb_fused"] is not None:
                    axes.annotate(f"{row['speedup_vs_comb_fused']:.2f}x",
                                  (position, highest[position - 1]),
                                  xytext=(0, 3), textcoords="offset points",
                                  ha="center", va="bottom", fontsize=7)
            axes.set_ylim(top=top + 0.06 * (top - axes.get_ylim()[0]))
        skipped = [row["strategy"] for row in panel["rows"] if row["box"] is None]
        if skipped:
            axes.text(0.01, 0.99, "not timed: " + ", ".join(skipped), transform=axes.transAxes,
                      fontsize=7, va="top")
        axes.set_title(panel["label"], fontsize=10)
        axes.grid(True, axis="y", alpha=0.3)
    axes_row[0][0].set_ylabel("time per exchange (µs)")
    machine = "; ".join(sorted({describe_machine(panel["report"]) for panel in panels}))
    figure.suptitle((args.title or "Halo exchange time per strategy") + "\n" + machine
                    + f"\nbox: p25–p75, line: median, {whisker_text(args.whiskers)}\n"
                    "above each box: comb_fused median / its median (dotted: comb_fused median)",
                    fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)


def highest_drawn(box, whiskers):
    """The top of what is drawn for a box: its highest outlier (iqr) or its upper whisker."""
    if whiskers == "iqr" and box["outliers"]:
        return max(box["outliers"])
    return box["whisker_high"]


def tick_label(row):
    return row["strategy"] + ("" if row["verified"] else " (unverified)")


def summary_json(args, panels):
    return {
        "format": "haloflag-halo-boxes", "version": 1, "whiskers": args.whiskers,
        "unit": "microseconds per exchange, slowest rank",
        "panels": [{"file": panel["file"], "cube": panel["cube"], "label": panel["label"],
                    "machine": describe_machine(panel["report"]),
                    "date": panel["report"].get("date"),
                    "rows": panel["rows"]}
                   for panel in panels],
    }


def main(argv):
    args = parse_arguments(argv)
    pyplot = None
    if not args.no_plot:
        pyplot = load_pyplot()
        if pyplot is None:
            rerun_with_system_python(__file__, TOOL)
            print(f"{TOOL}: error: matplotlib is not importable by {sys.executable}: install "
                  "python3-matplotlib (scripts/setup.sh) or pass --no-plot", file=sys.stderr)
            return EXIT_NO_MATPLOTLIB
    try:
        panels = collect(args)
    except ReportError as error:
        print(f"{TOOL}: error: {error}", file=sys.stderr)
        return 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    plot_name = None
    if pyplot is not None:
        plot_name = "halo_boxes.png"
        plot(pyplot, args, panels, args.out_dir / plot_name)
    (args.out_dir / "halo_boxes.md").write_text(markdown(args, panels, plot_name))
    (args.out_dir / "halo_boxes.json").write_text(
        json.dumps(summary_json(args, panels), indent=1) + "\n")
    written = ["halo_boxes.md", "halo_boxes.json"] + ([plot_name] if plot_name else [])
    print(f"{TOOL}: wrote {', '.join(str(args.out_dir / name) for name in written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
