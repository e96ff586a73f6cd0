#!/usr/bin/env python3
"""Renders a notify_latency JSON report as markdown: the paper's Table 1 (one read + one write of
a flag, CPU side and GPU side) beside the paper's own values, then the flag round trip, one-way
latencies and kernel launch + synchronise of the same run, the ratios and the targets (set for an
H100).

    scripts/figures/plot_notify_latency.py REPORT.json [-o notify_latency.md]

Standard library only, so it runs on the GPU machines as they are.
"""
import argparse
import json
import sys

FORMAT = "haloflag-notify-latency"

# The paper's Table 1, "Single notification overhead" (ns), on its machines, for comparison.
PAPER_TABLE_1 = [
    ("IBM Power9 + Volta100", 134, 236),
    ("Intel Icelake + Volta100", 311, 29184),
    ("AMD Rome + AMD MI100", 1760, 27),
]

TABLE_1_ROWS = ["cpu_read_write", "device_read_write"]
LATENCY_ROWS = ["round_trip", "one_way_host_to_device", "one_way_device_to_host",
                "empty_kernel_launch_sync", "graph_launch_sync"]
COLUMNS = ["median", "p10", "p90", "p99", "min"]


def fail(message):
    sys.exit(f"plot_notify_latency: {message}")


def load_report(path):
    try:
        with open(path, encoding="utf-8") as source:
            report = json.load(source)
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{path}: not JSON ({error})")
    if report.get("format") != FORMAT:
        fail(f"{path}: format is {report.get('format')!r}, expected {FORMAT!r}")
    if report.get("version") != 1:
        fail(f"{path}: version {report.get('version')!r} is not the supported 1")
    return report


def measurements_by_id(report):
    return {m["id"]: m for m in report["measurements"]}


def row(measurement, scale, digits):
    if not measurement["measured"]:
        return f"| {measurement['title']} | not measured: {measurement['skipped_reason']} |||||"
    summary = measurement["summary_ns"]
    cells = " | ".join(f"{summary[c] * scale:.{digits}f}" for c in COLUMNS)
    return f"| {measurement['title']} | {cells} |"


def describe_machine(report):
    machine = report["machine"]
    gpu = machine.get("gpu")
    parts = [machine["hostname"], machine["cpu_model"] or "CPU unknown", machine["os"]]
    if gpu:
        parts.insert(1, f"{gpu['name']} [{gpu['pci_bus_id']}], {gpu['architecture']}, "
                        f"{gpu['multiprocessors']} SMs, driver {gpu['driver_version']}, "
                        f"runtime {gpu['runtime_version']}")
    return ", ".join(parts)


def render(report, source_name):
    by_id = measurements_by_id(report)
    backend = report["backend"]
    params = report["parameters"]
    build = report["build"]
    gpu = report["machine"].get("gpu")
    title = gpu["name"] if gpu else "host backend (no GPU)"
    lines = [f"# Notification flag latency: {title}", ""]
    if backend["emulated_on_cpu"]:
        lines += ["**Host backend: a CPU thread stands in for the GPU. "
                  "These are not GPU results.**", ""]
    lines += [
        f"Measured {report['date']} by `bench/notify_latency` (haloflag "
        f"{build['haloflag_version']}, {build['build_type']}, {build['cxx_compiler']}"
        + (f", {build['gpu_compiler']}" if build["gpu_compiler"] else "") + ") on "
        f"{describe_machine(report)}.",
        "",
        f"Backend `{backend['name']}` ({backend['reason']}); "
        f"device side: {backend['device_side']}. "
        f"{params['warmup']} warm-up + {params['iterations']} timed samples per row; host waits "
        f"`{params['host_wait']}`, GPU poll back-off {params['poll_backoff_ns']} ns, deadline "
        f"{params['timeout_s']} s.",
        "",
        "Command: `" + " ".join(report["command_line"]) + "`. Every sample is in "
        f"`{source_name}`.",
        "",
        "## Table 1: one read followed by one write of a flag",
        "",
        f"ns per (read, write) pair: `poll_flag` on the other side's flag, then `signal_flag` on "
        f"this side's, {params['ops_per_sample']} pairs per timed window.",
        "",
        "| side | median | p10 | p90 | p99 | min |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [row(by_id[i], 1.0, 1) for i in TABLE_1_ROWS]
    lines += ["", "The paper's Table 1 (single notification overhead, ns, its machines):", "",
              "| architecture | CPU | GPU |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {cpu} | {gpu_ns} |" for name, cpu, gpu_ns in PAPER_TABLE_1]
    lines += ["", "## Flag latency and kernel launch + synchronise", "",
              "µs. Round trip and launches: host clock; one-way rows: both clocks, see below.",
              "",
              "| | median | p10 | p90 | p99 | min |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    lines += [row(by_id[i], 1e-3, 3) for i in LATENCY_ROWS]
    lines.append("")

    ratios = report["ratios"]
    if ratios["empty_kernel_launch_sync_over_round_trip"] is not None:
        lines += [f"Same run, medians: empty kernel launch + sync / round trip = "
                  f"{ratios['empty_kernel_launch_sync_over_round_trip']:.2f}×; "
                  f"1-node graph launch + sync / round trip = "
                  f"{ratios['graph_launch_sync_over_round_trip']:.2f}×.", ""]
    alignment = report["one_way_alignment"]
    one_way = f"One-way rows: {alignment['method']}"
    if not backend["emulated_on_cpu"]:
        one_way += (f"; the offset is known to ±{alignment['uncertainty_ns'] / 1000:.3f} µs, "
                    "which moves time between the two directions (their sum is exact)")
    clocks = report["clocks"]
    lines += [one_way + ".", "",
              f"Clocks: host {clocks['host']} "
              f"(smallest step {clocks['host_smallest_step_ns']} ns); "
              f"device {clocks['device']} "
              f"(smallest step {clocks['device_smallest_step_ns']} ns).", ""]

    targets = report["targets"]
    if targets["judged"]:
        ratio = targets["launch_over_round_trip"]
        lines += [f"Targets ({targets['source']}): round trip median ≤ "
                  f"{targets['round_trip_median_max_us']} µs: "
                  f"**{'met' if targets['round_trip_met'] else 'missed'}** "
                  f"({targets['round_trip_median_us']:.3f} µs); empty launch + sync ≥ "
                  f"{targets['launch_over_round_trip_min']}× round trip: "
                  f"**{'met' if targets['launch_over_round_trip_met'] else 'missed'}**"
                  + (f" ({ratio:.2f}×)" if ratio is not None else "") + ".", ""]
    else:
        lines += [f"Targets not judged: {targets['not_judged_reason']}.", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="notify_latency --json output")
    parser.add_argument("-o", "--output", help="markdown file to write (default: standard output)")
    args = parser.parse_args()
    report = load_report(args.report)
    try:
        markdown = render(report, args.report.rsplit("/", 1)[-1])
    except (KeyError, TypeError) as error:
        fail(f"{args.report}: missing or malformed field {error}")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(markdown)
    else:
        sys.stdout.write(markdown)


if __name__ == "__main__":
    main()
