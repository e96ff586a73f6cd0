#!/usr/bin/env python3
"""The runs of scripts/bench/bench_two_gpu.sh summarised: the exchanges with the two-GPU targets, the
fallback path, every fixed order of work against comb_fused and the library's default, and
Jacobi3D.

    scripts/tables/two_gpu_report.py OUT_DIR

OUT_DIR holds the parts that ran (exchanges/, orders/, jacobi/, or their .tar.gz, unpacked here
first). Writes OUT_DIR/summary.md and OUT_DIR/summary.json. Every time is the slowest rank's
median (halo_bench: per exchange; Jacobi3D: per iteration); a ratio is comb_fused's (or the
conventional loop's) median over the other's from the same run. Exit status 1, naming the file,
for a report it cannot read; 0 otherwise, whether or not the targets are met (the summary says).
"""

import json
import re
import statistics
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_report import ReportError, cube_of, read_report, transport_of  # noqa: E402

PARTS = ("exchanges", "orders", "jacobi")
FLAG_STRATEGIES = ("stream_notify", "stacked_notify", "resident")
# The library's fixed order of work (halo/include/haloflag/halo/exchange_options.hpp and
# kernels::LaunchSettings).
DEFAULT_ORDER = {"receives": "on-arrival", "sends": "together", "blocks": "3"}
TARGET_RESIDENT_NODE_US = 20.0
TARGET_NODE_OVER_MPI = 5.0
TARGET_RESIDENT_MPI = 1.3


def unpack_parts(out):
    for part in PARTS:
        archive = out / f"{part}.tar.gz"
        if archive.exists() and not (out / part).exists():
            with tarfile.open(archive) as tar:
                # Pythons before 3.11.4 have no extraction filters; the archive is our own.
                if hasattr(tarfile, "data_filter"):
                    tar.extractall(out, filter="data")
                else:
                    tar.extractall(out)


def median_of(entry):
    return (entry.get("summary_us") or {}).get("median")


def rows_of(report):
    """name -> (strategy, transport used, tuned, median, p10, p90)."""
    rows = {}
    for entry in report["strategies"]:
        summary = entry.get("summary_us") or {}
        rows[entry.get("name", "?")] = {
            "strategy": entry.get("strategy"), "transport": transport_of(entry),
            "tuned": bool(entry.get("tuned")), "median_us": summary.get("median"),
            "p10_us": summary.get("p10"), "p90_us": summary.get("p90"),
            "order": (entry.get("order_of_work") or {}).get("summary", ""),
        }
    return rows


def fmt(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def times(value):
    return "-" if value is None else f"{value:.2f}x"


def find(rows, strategy, transport, tuned=False):
    for row in rows.values():
        if row["strategy"] == strategy and row["transport"] == transport and row["tuned"] == tuned:
            return row
    return None


def speedup(baseline, row):
    if baseline is None or row is None or not row["median_us"]:
        return None
    return baseline["median_us"] / row["median_us"]


def exchanges_section(out, lines, result):
    runs = {}
    backends = set()
    for kind in ("transports", "fallback", "node_teams"):
        for path in sorted((out / "exchanges" / kind).glob("halo_bench_*.json")):
            report = read_report(path)
            runs.setdefault(kind, {})[cube_of(report, path)] = rows_of(report)
            backends.add((report["backend"] or {}).get("name", "?"))
    if not runs:
        return
    lines.append("## Exchanges: every strategy over both transports\n")
    lines.append(f"Backend: {', '.join(sorted(backends))}" +
                 (" (CPU threads standing in for GPUs: a check of the scripts, not GPU results)"
                  if "host" in backends else "") + ".\n")
    transports = runs.get("transports", {})
    for cube, rows in sorted(transports.items()):
        lines.append(f"### Cube {cube}\n")
        lines.append("| strategy | transport | median µs | p10 – p90 | vs comb_fused, same transport "
                     "| order of work |")
        lines.append("| --- | --- | ---: | ---: | ---: | --- |")
        for row in rows.values():
            base = find(rows, "comb_fused", row["transport"])
            name = row["strategy"] + (":tuned" if row["tuned"] else "")
            lines.append(f"| {name} | {row['transport']} | {fmt(row['median_us'])} | "
                         f"{fmt(row['p10_us'])} – {fmt(row['p90_us'])} | "
                         f"{times(speedup(base, row))} | {row['order'] or '-'} |")
        lines.append("")
    fallback = runs.get("fallback", {})
    node_run_table(lines, "The node transport's fallback (pinned host memory both ranks map)",
                   fallback, transports)
    teams = runs.get("node_teams", {})
    node_run_table(lines, "The node transport with teams of blocks per long message (256 "
                   "threads per block, 8 blocks per long send and per long receive)", teams,
                   transports)
    result["exchanges"] = {str(cube): rows for cube, rows in transports.items()}
    result["fallback"] = {str(cube): rows for cube, rows in fallback.items()}
    if teams:
        result["node_teams"] = {str(cube): rows for cube, rows in teams.items()}
    targets_section(transports, lines, result)


def node_run_table(lines, title, runs, transports):
    """A run of the node transport with other settings (cube -> rows) against the default one
    (device memory through IPC, default launch) of the transports run."""
    if not runs:
        return
    lines.append(f"### {title}\n")
    lines.append("| strategy | cube | median µs | vs comb_fused, same run | default node median µs | "
                 "default / this |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for cube, rows in sorted(runs.items()):
        base = find(rows, "comb_fused", "node")
        for row in rows.values():
            default = find(transports.get(cube, {}), row["strategy"], "node", row["tuned"])
            lines.append(f"| {row['strategy']} | {cube} | {fmt(row['median_us'])} | "
                         f"{times(speedup(base, row))} | "
                         f"{fmt(default['median_us'] if default else None)} | "
                         f"{times(speedup(default, row))} |")
    lines.append("")


def target(name, measured, goal, met, off):
    return {"target": name, "measured": measured, "goal": goal, "met": met, "off_by": off}


def targets_section(transports, lines, result):
    checks = []
    rows200 = transports.get(200)
    if rows200:
        resident_node = find(rows200, "resident", "node")
        resident_mpi = find(rows200, "resident", "mpi")
        comb_mpi = find(rows200, "comb_fused", "mpi")
        if resident_node:
            t = resident_node["median_us"]
            checks.append(target("cube 200: resident over node ≤ 20 µs", f"{t:.1f} µs", "20 µs",
                                 t <= TARGET_RESIDENT_NODE_US,
                                 f"{t - TARGET_RESIDENT_NODE_US:+.1f} µs"))
        if resident_node and comb_mpi:
            s = speedup(comb_mpi, resident_node)
            checks.append(target("cube 200: resident over node ≥ 5× faster than comb_fused over "
                                 "mpi", f"{s:.2f}x", "5x", s >= TARGET_NODE_OVER_MPI,
                                 f"{s / TARGET_NODE_OVER_MPI - 1:+.0%}"))
        if resident_mpi and comb_mpi:
            s = speedup(comb_mpi, resident_mpi)
            checks.append(target("cube 200: resident over mpi ≥ 1.3× faster than comb_fused over "
                                 "mpi", f"{s:.2f}x", "1.3x", s >= TARGET_RESIDENT_MPI,
                                 f"{s / TARGET_RESIDENT_MPI - 1:+.0%}"))
    for cube, rows in sorted(transports.items()):
        for transport in ("mpi", "node"):
            base = find(rows, "comb_fused", transport)
            for strategy in FLAG_STRATEGIES:
                row = find(rows, strategy, transport)
                s = speedup(base, row)
                if s is None:
                    continue
                checks.append(target(f"cube {cube}: {strategy} no slower than comb_fused over "
                                     f"{transport}", f"{s:.2f}x", "1.00x", s >= 1.0,
                                     f"{s - 1:+.0%}"))
    if not checks:
        return
    met = sum(1 for check in checks if check["met"])
    lines.append(f"## Targets: {met} of {len(checks)} met\n")
    fixed = {row["order"] for rows in transports.values() for row in rows.values()
             if row["strategy"] in FLAG_STRATEGIES and not row["tuned"] and row["order"]}
    lines.append("The untuned rows, with the run's fixed order of work (" +
                 ("; ".join(sorted(fixed)) or "not recorded") + "); the tuned rows are above.\n")
    lines.append("| target | measured | met | off by |")
    lines.append("| --- | ---: | :---: | ---: |")
    for check in checks:
        lines.append(f"| {check['target']} | {check['measured']} | "
                     f"{'yes' if check['met'] else '**no**'} | {check['off_by']} |")
    lines.append("")
    result["targets"] = checks


def describe_order(order):
    return (f"receives {order['receives']}, long sends {order['sends']}, "
            f"{order['blocks']} block(s) per long receive")


def order_of(variant):
    """{'receives': ..., 'sends': ..., 'blocks': ...} from a variant name of bench_two_gpu.sh."""
    order = dict(DEFAULT_ORDER)
    for key, value in re.findall(r"(receives|sends|blocks)-([a-z0-9-]+)", variant):
        order[key] = value
    return order


def orders_section(out, lines, result):
    folders = sorted(path for path in (out / "orders").glob("*_*") if path.is_dir())
    if not folders:
        return
    lines.append("## Fixed orders of work\n")
    lines.append("Per order and strategy: the median over its rounds of the run's slowest-rank "
                 "median, and of comb_fused's median / this one from the same run (higher is "
                 "faster). The fastest order is the one with the highest ratio; the library's "
                 "default is " + describe_order(DEFAULT_ORDER) + ".\n")
    result["orders"] = {}
    for folder in folders:
        medians = {}  # (variant, strategy) -> [median per round]
        ratios = {}  # (variant, strategy) -> [comb_fused's median / this, per round]
        for path in sorted(folder.glob("*.json")):
            variant = re.sub(r"_\d+$", "", path.stem)
            rows = rows_of(read_report(path))
            base = next((r for r in rows.values() if r["strategy"] == "comb_fused"), None)
            for row in rows.values():
                medians.setdefault((variant, row["strategy"]), []).append(row["median_us"])
                ratio = speedup(base, row)
                if ratio is not None:
                    ratios.setdefault((variant, row["strategy"]), []).append(ratio)
        per_strategy = {}
        for (variant, strategy), values in medians.items():
            if strategy == "comb_fused":
                continue
            per_strategy.setdefault(strategy, {})[variant] = {
                "median_us": statistics.median(values), "rounds": len(values),
                "vs_comb_fused": (statistics.median(ratios[(variant, strategy)])
                                  if ratios.get((variant, strategy)) else None)}
        strategies = sorted(per_strategy)
        variants = sorted({v for by_variant in per_strategy.values() for v in by_variant})
        lines.append(f"### {folder.name.replace('_', ', cube ')}\n")
        lines.append("| order | rounds | " +
                     " | ".join(f"{s} µs | {s} vs comb_fused" for s in strategies) + " |")
        lines.append("| --- | ---: | " + " | ".join("---: | ---:" for _ in strategies) + " |")
        for variant in variants:
            cells = []
            rounds = 0
            for strategy in strategies:
                entry = per_strategy[strategy].get(variant) or {}
                rounds = max(rounds, entry.get("rounds", 0))
                cells.append(f"{fmt(entry.get('median_us'))} | {times(entry.get('vs_comb_fused'))}")
            mark = " (default)" if order_of(variant) == DEFAULT_ORDER else ""
            lines.append(f"| {variant}{mark} | {rounds} | " + " | ".join(cells) + " |")
        lines.append("")
        lines.append("| strategy | fastest order | its ratio | the default's ratio | "
                     "fastest / default |")
        lines.append("| --- | --- | ---: | ---: | ---: |")
        for strategy in strategies:
            by_variant = per_strategy[strategy]
            rated = {v: e["vs_comb_fused"] for v, e in by_variant.items()
                     if e["vs_comb_fused"] is not None}
            if not rated:
                continue
            fastest = max(rated, key=rated.get)
            default = next((v for v in rated if order_of(v) == DEFAULT_ORDER), None)
            default_ratio = rated.get(default)
            lines.append(f"| {strategy} | {fastest} | {times(rated[fastest])} | "
                         f"{times(default_ratio)} | "
                         f"{times(rated[fastest] / default_ratio if default_ratio else None)} |")
            result["orders"].setdefault(folder.name, {})[strategy] = by_variant
        lines.append("")


def jacobi_section(out, lines, result):
    paths = sorted((out / "jacobi").glob("timed_*.json"))
    if not paths:
        return
    lines.append("## Jacobi3D, every variant\n")
    lines.append("| stencil | local | transport | conventional µs | resident µs | stream µs | "
                 "conventional / resident | conventional / stream | checked bit for bit |")
    lines.append("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | :---: |")
    result["jacobi"] = []
    runs = []
    for path in paths:
        match = re.fullmatch(r"timed_s(\d+)_l(\d+)_(\w+)", path.stem)
        if match:
            runs.append(((int(match[1]), int(match[2]), match[3]), path))
    for (stencil, local, transport), path in sorted(runs):
        try:
            timed = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise ReportError(f"{path}: {error}") from error
        medians = {v["variant"]: v["summary_us"]["median"] for v in timed.get("variants", [])}
        check_path = path.with_name(path.name.replace("timed_", "check_", 1))
        identical = None
        if check_path.exists():
            checked = json.loads(check_path.read_text())
            identical = all((v.get("check") or {}).get("identical") for v in checked["variants"])
        conventional = medians.get("conventional")
        row = {"stencil": stencil, "local": local, "transport": transport,
               "median_us": medians, "identical": identical}
        result["jacobi"].append(row)
        lines.append(
            f"| {row['stencil']} | {row['local']}³ | {row['transport']} | {fmt(conventional)} | "
            f"{fmt(medians.get('resident'))} | {fmt(medians.get('stream'))} | "
            f"{times(conventional / medians['resident'] if medians.get('resident') else None)} | "
            f"{times(conventional / medians['stream'] if medians.get('stream') else None)} | "
            f"{'-' if identical is None else ('yes' if identical else '**no**')} |")
    lines.append("")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[1])
    try:
        unpack_parts(out)
        lines = [f"# Two GPUs, one rank each: {out.name}\n"]
        result = {}
        machine = next(iter(sorted(out.glob("*/machine.txt"))), None)
        if machine:
            lines.append(f"Machine, versions and commit: `{machine.relative_to(out)}` (and each "
                         "part's own); commands: each part's `commands.txt`.\n")
        exchanges_section(out, lines, result)
        orders_section(out, lines, result)
        jacobi_section(out, lines, result)
    except ReportError as error:
        print(f"two_gpu_report: error: {error}", file=sys.stderr)
        return 1
    if not result:
        print(f"two_gpu_report: error: {out}: no part of bench_two_gpu.sh found", file=sys.stderr)
        return 1
    (out / "summary.md").write_text("\n".join(lines))
    (out / "summary.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"two_gpu_report: {out / 'summary.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
