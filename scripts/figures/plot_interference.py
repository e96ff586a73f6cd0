#!/usr/bin/env python3
"""Draws an `interference` JSON report in the manner of the paper's Figs. 6-11: the time of one
MPI_Send against the buffer size, one curve per scenario (SSB, PSB, PCB, P2AB, with the no-GPU
baseline and the concurrent copies beside them), one figure per GPU access form (stream,
stacked), the p10-p90 band shaded; a third figure shows each scenario's slowdown over the
baseline. Also writes the medians and ratios as a markdown table for docs/results/<machine>/.

    scripts/figures/plot_interference.py REPORT.json OUT_DIR

Writes OUT_DIR/interference_stream.png, interference_stacked.png (for the forms the report
has), interference_slowdown.png and interference.md. The table needs only the standard library;
the figures need matplotlib (Debian: python3-matplotlib). Without it the table is still written
and the exit status is 3.
"""
import argparse
import json
import os
import sys

FORMAT = "haloflag-interference"
MATPLOTLIB_MISSING = 3

# Scenario order, colours and line styles (the baseline and the copies set apart).
STYLES = {
    "none": dict(color="black", linestyle="--", marker="", label="no GPU access (baseline)"),
    "SSB": dict(color="tab:blue", linestyle="-", marker="o", label="SSB"),
    "PSB": dict(color="tab:red", linestyle="-", marker="s", label="PSB (outside the MPI standard)"),
    "PCB": dict(color="tab:orange", linestyle="-", marker="^", label="PCB"),
    "P2AB": dict(color="tab:green", linestyle="-", marker="v", label="P2AB"),
    "copies": dict(color="tab:gray", linestyle=":", marker="x", label="concurrent H<->D copies"),
}
KERNEL_SCENARIOS = ["SSB", "PSB", "PCB", "P2AB"]


def fail(message):
    sys.exit(f"plot_interference: {message}")


def load_report(path):
    try:
        with open(path, encoding="utf-8") as source:
            report = json.load(source)
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{path}: not JSON ({error})")
    if not isinstance(report, dict) or report.get("format") != FORMAT:
        found = report.get("format") if isinstance(report, dict) else type(report).__name__
        fail(f"{path}: format is {found!r}, expected {FORMAT!r}")
    if report.get("version") != 1:
        fail(f"{path}: version {report.get('version')!r} is not the supported 1")
    if not report.get("cases"):
        fail(f"{path}: the report has no cases")
    return report


def size_text(size):
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if size < 1024 or size % 1024 or unit == "GiB":
            return f"{size} {unit}"
        size //= 1024
    return f"{size}"


def emulated(report):
    return report["backend"]["emulated_on_cpu"]


def machine_line(report):
    """Who wrote and where, e.g. 'NVIDIA H100 80GB HBM3 (sm_90, driver 13.0), Open MPI v4.1.6'."""
    gpu = report["machine"].get("writing_gpu")
    if gpu:
        writer = f"{gpu['name']} ({gpu['architecture']}, driver {gpu['driver_version']})"
    else:
        writer = "host backend: CPU threads stand in for the GPU, not GPU results"
    mpi = report["mpi"]["library"].split(",")[0]
    hosts = sorted(set(report["machine"]["hosts"]))
    return f"{writer}; {mpi}; ranks on {', '.join(hosts)}"


def curves(report, access):
    """scenario -> sorted [(bytes, case)] for one access form (the baseline and copies have none)."""
    result = {}
    for case in report["cases"]:
        if case["access"] not in (access, None):
            continue
        result.setdefault(case["scenario"], []).append((case["bytes"], case))
    return {name: sorted(points, key=lambda p: p[0]) for name, points in result.items()}


def forms_in(report):
    forms = [f for f in ("stream", "stacked") if any(c["access"] == f for c in report["cases"])]
    return forms


def ratio_text(value):
    return "–" if value is None else f"{value:.2f}"


def write_table(report, path):
    params = report["parameters"]
    lines = [
        "# MPI_Send under GPU memory access (interference, paper §4.3)",
        "",
        f"- date: {report['date']}",
        f"- writer: {machine_line(report)}",
        f"- backend: {report['backend']['name']} ({report['backend']['reason']})",
    ]
    for form in ("stream", "stacked"):
        shape = report["access_shapes"].get(form)
        if shape:
            lines.append(f"- {form} access: {shape['description']}")
    if report.get("copies"):
        lines.append(f"- copies: {report['copies']['description']}")
    lines += [
        f"- rounds: {params['warmup']} warm-up + {params['iterations']} timed per case; "
        f"P2AB gap {size_text(params['p2ab_gap_bytes'])}",
        f"- command: `{' '.join(report['command_line'])}`",
        "",
        "Median, p10 and p90 of one MPI_Send in µs; ×none: over the no-GPU baseline of the same "
        "size; ×SSB: over SSB of the same size and access form; GPU work: median passes over the "
        "buffer the GPU keeps writing, or copy pairs. PSB changes the buffer while it is sent "
        "(outside the MPI standard).",
        "",
        "| size | access | case | median | p10 | p90 | ×none | ×SSB | GPU work | data |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for case in report["cases"]:
        s = case["summary_us"]
        if case["copy_pairs"] is not None:
            work = f"{case['copy_pairs']} copy pairs"
        elif case["gpu_passes_median"] is not None:
            work = f"{case['gpu_passes_median']:.1f} passes"
        else:
            work = "–"
        check = case["data_check"]
        data = "not checked" if not check["checked"] else ("ok" if check["passed"] else "WRONG")
        lines.append(
            f"| {size_text(case['bytes'])} | {case['access'] or '–'} | {case['scenario']} | "
            f"{s['median']:.3f} | {s['p10']:.3f} | {s['p90']:.3f} | "
            f"{ratio_text(case['slowdown_vs_none'])} | {ratio_text(case['slowdown_vs_ssb'])} | "
            f"{work} | {data} |")
    if emulated(report):
        lines += ["", "**host backend: CPU threads stand in for the GPU and its copy engines; "
                      "these are not GPU results.**"]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def size_axis(axis, sizes):
    axis.set_xscale("log", base=2)
    axis.set_xticks(sizes)
    axis.set_xticklabels([size_text(s) for s in sizes], rotation=45, ha="right")
    axis.minorticks_off()
    axis.set_xlabel("buffer size")
    axis.grid(True, which="major", alpha=0.3)


def plot_times(plt, report, access, path):
    figure, axis = plt.subplots(figsize=(8, 5.5))
    sizes = report["parameters"]["sizes"]
    for name, style in STYLES.items():
        points = curves(report, access).get(name)
        if not points:
            continue
        x = [p[0] for p in points]
        median = [p[1]["summary_us"]["median"] for p in points]
        low = [p[1]["summary_us"]["p10"] for p in points]
        high = [p[1]["summary_us"]["p90"] for p in points]
        axis.plot(x, median, color=style["color"], linestyle=style["linestyle"],
                  marker=style["marker"], markersize=4, label=style["label"])
        axis.fill_between(x, low, high, color=style["color"], alpha=0.12, linewidth=0)
    axis.set_yscale("log")
    axis.set_ylabel("MPI_Send time, µs (median; p10–p90 shaded)")
    size_axis(axis, sizes)
    axis.set_title(f"MPI_Send time, {access} access\n{machine_line(report)}", fontsize=9)
    axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=130)
    plt.close(figure)


def plot_slowdown(plt, report, forms, path):
    figure, axes = plt.subplots(1, len(forms), figsize=(6 * len(forms), 5), squeeze=False,
                                sharey=True)
    sizes = report["parameters"]["sizes"]
    for axis, access in zip(axes[0], forms):
        for name in KERNEL_SCENARIOS + ["copies"]:
            points = curves(report, access).get(name)
            if not points:
                continue
            style = STYLES[name]
            x = [p[0] for p in points if p[1]["slowdown_vs_none"] is not None]
            y = [p[1]["slowdown_vs_none"] for p in points if p[1]["slowdown_vs_none"] is not None]
            axis.plot(x, y, color=style["color"], linestyle=style["linestyle"],
                      marker=style["marker"], markersize=4, label=style["label"])
        axis.axhline(1.0, color="black", linestyle="--", linewidth=1)
        size_axis(axis, sizes)
        axis.set_title(f"{access} access", fontsize=10)
    axes[0][0].set_ylabel("median MPI_Send time / no-GPU baseline")
    axes[0][0].legend(fontsize=8)
    figure.suptitle(f"Slowdown of MPI_Send under GPU memory access\n{machine_line(report)}",
                    fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=130)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="JSON written by interference --json")
    parser.add_argument("out_dir", help="folder for the PNG figures and interference.md")
    args = parser.parse_args()

    report = load_report(args.report)
    os.makedirs(args.out_dir, exist_ok=True)
    table = os.path.join(args.out_dir, "interference.md")
    write_table(report, table)
    print(f"wrote {table}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_interference: matplotlib is not installed (Debian: apt-get install "
              "python3-matplotlib); wrote the table only", file=sys.stderr)
        return MATPLOTLIB_MISSING

    forms = forms_in(report)
    for access in forms:
        path = os.path.join(args.out_dir, f"interference_{access}.png")
        plot_times(plt, report, access, path)
        print(f"wrote {path}")
    if forms:
        path = os.path.join(args.out_dir, "interference_slowdown.png")
        plot_slowdown(plt, report, forms, path)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
