#!/usr/bin/env python3
"""Measured against modeled: halo_bench reports (one per cube) beside the K-model's lower bound.

    scripts/model_report.py RUN_200.json RUN_400.json RUN_800.json --out-dir DIR
        [--params PARAMS.json [--model-cli build/model/haloflag_model]]
        [--strategies NAME,NAME...] [--title TEXT] [--no-plot]

Writes into DIR:
  model_report.md    a table per strategy and cube (measured median, p10-p90, model bound,
                     measured/model) and a strategy x cube table of measured/model
  model_report.png   time per exchange against cube size, one line per strategy, the model's bound
                     dashed (like Fig. 12 of Elis et al. 2024); a second panel shows measured/model
  model_report.json  the same numbers for other tools

Reports may be gzipped (.json.gz). The model bound is the one each halo_bench report carries
(computed with the parameter file that run used), unless --params is given: then haloflag_model
predicts each run's config with that file. The config is the report's workload.config_file or,
when that path does not exist here, the file of the same name in comb_configs/.

Needs matplotlib for the plot (Debian: python3-matplotlib, installed by scripts/setup.sh). When
the interpreter running this script lacks it but /usr/bin/python3 has it (a pyenv or venv
python first on PATH), the script runs itself again with /usr/bin/python3. --no-plot needs only
the standard library.
"""

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT_FORMAT = "haloflag-halo-bench"
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "HALOFLAG_MODEL_REPORT_REEXEC"
EXIT_NO_MATPLOTLIB = 3


class ReportError(Exception):
    """A problem with an input, named with its file."""


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="halo_bench reports beside the K-model's lower bound: a markdown table and "
        "a Fig.-12-like plot.")
    parser.add_argument("reports", nargs="+", type=Path,
                        help="halo_bench JSON reports, one per cube size")
    parser.add_argument("--out-dir", type=Path, required=True, help="folder for the outputs")
    parser.add_argument("--params", type=Path,
                        help="model parameter file: predict each config with haloflag_model "
                        "instead of using the bound in the reports")
    parser.add_argument("--model-cli", type=Path,
                        help="haloflag_model executable (default: build/model/haloflag_model, "
                        "then build-gpu/model/haloflag_model, then PATH)")
    parser.add_argument("--strategies",
                        help="comma-separated strategies to report, in this order (default: "
                        "every strategy of the reports; Fig. 12 of the paper: "
                        "comb_fused,stream_base,stream_notify)")
    parser.add_argument("--title", help="plot and report title")
    parser.add_argument("--no-plot", action="store_true", help="write no PNG (no matplotlib needed)")
    return parser.parse_args(argv)


def load_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
        return pyplot
    except ImportError:
        return None


def rerun_with_system_python(script=__file__, tool="model_report"):
    """Runs the script again with Debian's python when it has matplotlib; returns only if not.
    Other plotters (plot_halo_boxes.py) pass their own file and name."""
    if os.environ.get(REEXEC_GUARD) or not os.path.exists(SYSTEM_PYTHON):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON):
        return
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import matplotlib"], capture_output=True)
    if probe.returncode != 0:
        return
    print(f"{tool}: matplotlib is not importable by {sys.executable}; "
          f"running with {SYSTEM_PYTHON}", file=sys.stderr)
    os.execve(SYSTEM_PYTHON, [SYSTEM_PYTHON, str(Path(script).resolve()), *sys.argv[1:]],
              {**os.environ, REEXEC_GUARD: "1"})


def cube_of(report, path):
    """The cube edge of a run: its geometry, the domain in its description, or the config name."""
    workload = report.get("workload") or {}
    geometry = workload.get("geometry")
    if geometry and geometry.get("size"):
        size = geometry["size"]
        if len(set(size)) == 1:
            return int(size[0])
    match = re.search(r"domain (\d+)x(\d+)x(\d+)", workload.get("description", ""))
    if match and len(set(match.groups())) == 1:
        return int(match.group(1))
    match = re.search(r"comb_(\d+)_", Path(workload.get("config_file", "")).name)
    if match:
        return int(match.group(1))
    raise ReportError(f"{path}: cannot tell the cube size (no cubic geometry, domain in "
                      "workload.description or comb_<N>_ config name)")


def read_report(path):
    """A halo_bench report, plain or gzipped (the committed raw data is often .json.gz)."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8") as source:
                report = json.load(source)
        else:
            report = json.loads(path.read_text())
    except (OSError, EOFError, json.JSONDecodeError) as error:
        raise ReportError(f"{path}: {error}") from error
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT:
        raise ReportError(f"{path}: not a halo_bench report (format must be '{REPORT_FORMAT}')")
    for key in ("strategies", "model", "backend", "workload"):
        if key not in report:
            raise ReportError(f"{path}: missing key '{key}'")
    return report


def find_model_cli(given):
    if given:
        if not given.exists():
            raise ReportError(f"--model-cli {given}: no such file")
        return given
    for candidate in (ROOT / "build/model/haloflag_model", ROOT / "build-gpu/model/haloflag_model"):
        if candidate.exists():
            return candidate
    on_path = shutil.which("haloflag_model")
    if on_path:
        return Path(on_path)
    raise ReportError("--params needs haloflag_model: build it (cmake --build build --target "
                      "haloflag_model_cli) or pass --model-cli")


def config_of(report, path):
    config = (report.get("workload") or {}).get("config_file")
    if not config:
        raise ReportError(f"{path}: the run used no config file, so --params cannot predict it")
    config = Path(config)
    if config.exists():
        return config
    shipped = ROOT / "comb_configs" / config.name
    if shipped.exists():
        return shipped
    raise ReportError(f"{path}: config {config} not found here, nor {shipped}")


def predict(model_cli, config, params):
    """haloflag_model's total lower bound for the config, in microseconds."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "prediction.json"
        run = subprocess.run([str(model_cli), str(config), "--params", str(params),
                              "--json", str(out)], capture_output=True, text=True)
        if run.returncode != 0:
            raise ReportError(f"haloflag_model {config} --params {params} failed "
                              f"({run.returncode}): {run.stderr.strip()}")
        return json.loads(out.read_text())["total"]["lower_bound_s"] * 1e6


def params_provenance(params):
    try:
        return json.loads(params.read_text()).get("provenance") or {}
    except (OSError, json.JSONDecodeError, AttributeError):
        return {}


def describe_machine(report):
    machine = report.get("machine") or {}
    hosts = sorted(set(machine.get("hosts") or []))
    gpus = [gpu.get("name", "?") for gpu in machine.get("gpus") or []]
    backend = report["backend"]
    text = ", ".join(hosts) or "unknown host"
    if gpus:
        names = sorted(set(gpus))
        text += ": " + ", ".join(f"{gpus.count(name)} x {name}" for name in names)
    text += f" ({backend.get('name', '?')} backend"
    if backend.get("emulated_on_cpu"):
        text += ": CPU threads emulate the GPU, not GPU results"
    return text + ")"


def collect(args):
    """One record per (run, strategy), runs sorted by cube."""
    model_cli = find_model_cli(args.model_cli) if args.params else None
    if args.params and not args.params.exists():
        raise ReportError(f"--params {args.params}: no such file")
    runs = []
    for path in args.reports:
        report = read_report(path)
        cube = cube_of(report, path)
        model = report["model"]
        if args.params:
            bound_us = predict(model_cli, config_of(report, path), args.params)
            model_source = str(args.params)
        else:
            bound_us = model.get("bound_us")
            model_source = model.get("params_file", "?")
        runs.append({"file": str(path), "cube": cube, "report": report, "bound_us": bound_us,
                     "model_source": model_source})
    cubes = [run["cube"] for run in runs]
    duplicates = sorted({cube for cube in cubes if cubes.count(cube) > 1})
    if duplicates:
        raise ReportError(f"more than one report for cube {duplicates[0]}: give one per cube")
    runs.sort(key=lambda run: run["cube"])

    wanted = None
    if args.strategies:
        wanted = [name.strip() for name in args.strategies.split(",") if name.strip()]
        if not wanted:
            raise ReportError(f"--strategies '{args.strategies}': no strategy named")
    rows = []
    for run in runs:
        by_name = {strategy.get("name", "?"): strategy for strategy in run["report"]["strategies"]}
        missing = [name for name in wanted or [] if name not in by_name]
        if missing:
            raise ReportError(f"{run['file']}: no strategy {', '.join(missing)} (it has "
                              f"{', '.join(by_name)})")
        for strategy in (by_name[name] for name in wanted) if wanted else by_name.values():
            summary = strategy.get("summary_us")
            median = summary.get("median") if summary else None
            bound = run["bound_us"]
            rows.append({
                "strategy": strategy.get("name", "?"),
                "cube": run["cube"],
                "median_us": median,
                "p10_us": summary.get("p10") if summary else None,
                "p90_us": summary.get("p90") if summary else None,
                "verified": bool((strategy.get("verification") or {}).get("passed")),
                "model_bound_us": bound,
                "measured_over_model": median / bound if median and bound else None,
            })
    return runs, rows


def number(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def strategies_in_order(rows):
    names = []
    for row in rows:
        if row["strategy"] not in names:
            names.append(row["strategy"])
    return names


def markdown(args, runs, rows, plot_name):
    first = runs[0]["report"]
    machines = sorted({describe_machine(run["report"]) for run in runs})
    cubes = [run["cube"] for run in runs]
    title = args.title or "Measured against modeled halo exchange time"
    lines = [f"# {title}", ""]
    lines.append(f"- machine: {'; '.join(machines)}"
                 + (" — **the runs differ in machine or backend**" if len(machines) > 1 else ""))
    lines.append(f"- MPI: {(first.get('mpi') or {}).get('library', '?')}, "
                 f"{(first.get('mpi') or {}).get('ranks', '?')} ranks")
    if args.params:
        provenance = params_provenance(args.params)
        lines.append(f"- model: lower bound SP + max T_comm + LUP (docs/model.md) from "
                     f"`haloflag_model` with `{args.params}` (machine: "
                     f"{provenance.get('machine', '?')}; date: {provenance.get('date', '?')})")
    else:
        model = first["model"]
        lines.append(f"- model: lower bound SP + max T_comm + LUP (docs/model.md) as each run "
                     f"computed it, parameters `{model.get('params_file', '?')}` "
                     f"({model.get('params_machine', '?')})")
        if any(run["report"]["model"].get("paper_machine") for run in runs):
            lines.append("- **the bound uses the paper's Power9 + V100 parameters, not this "
                         "machine's**: calibrate (scripts/calibrate_machine.sh) and pass --params")
    lines.append("- runs: " + "; ".join(
        f"cube {run['cube']}: `{run['file']}` ({run['report'].get('date', '?')}, "
        f"{(run['report'].get('parameters') or {}).get('iterations', '?')} timed exchanges)"
        for run in runs))
    lines += ["", "Times in microseconds per exchange (the slowest rank's); measured = median over "
              "the timed exchanges.", ""]
    lines.append("| strategy | cube | measured median | p10 – p90 | model bound | measured / model |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in strategies_in_order(rows):
        for row in (r for r in rows if r["strategy"] == name):
            spread = ("-" if row["p10_us"] is None
                      else f"{number(row['p10_us'])} – {number(row['p90_us'])}")
            ratio = number(row["measured_over_model"], 2)
            if ratio != "-":
                ratio += "x"
            unverified = "" if row["verified"] else " (not verified)"
            lines.append(f"| {name}{unverified} | {row['cube']} | {number(row['median_us'])} | "
                         f"{spread} | {number(row['model_bound_us'])} | {ratio} |")
    lines += ["", "measured / model per strategy and cube:", ""]
    lines.append("| strategy | " + " | ".join(str(cube) for cube in cubes) + " |")
    lines.append("| --- |" + " ---: |" * len(cubes))
    for name in strategies_in_order(rows):
        cells = []
        for cube in cubes:
            row = next((r for r in rows if r["strategy"] == name and r["cube"] == cube), None)
            value = row["measured_over_model"] if row else None
            cells.append("-" if value is None else f"{value:.2f}x")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    bounds = " | ".join(number(run["bound_us"]) for run in runs)
    lines.append(f"| *model bound (µs)* | {bounds} |")
    if plot_name:
        lines += ["", f"![time per exchange against cube size]({plot_name})"]
    return "\n".join(lines) + "\n"


def plot(pyplot, args, runs, rows, path):
    cubes = [run["cube"] for run in runs]
    figure, (times, ratios) = pyplot.subplots(1, 2, figsize=(12, 4.8))
    for name in strategies_in_order(rows):
        own = [r for r in rows if r["strategy"] == name and r["median_us"] is not None]
        if not own:
            continue
        x = [r["cube"] for r in own]
        median = [r["median_us"] for r in own]
        below = [r["median_us"] - r["p10_us"] for r in own]
        above = [r["p90_us"] - r["median_us"] for r in own]
        times.errorbar(x, median, yerr=[below, above], marker="o", capsize=3, label=name)
        with_ratio = [r for r in own if r["measured_over_model"] is not None]
        ratios.plot([r["cube"] for r in with_ratio],
                    [r["measured_over_model"] for r in with_ratio], marker="o", label=name)
    modeled = [run for run in runs if run["bound_us"] is not None]
    if modeled:
        times.plot([run["cube"] for run in modeled], [run["bound_us"] for run in modeled],
                   "k--", linewidth=2, label="K-model lower bound")
    ratios.axhline(1.0, color="k", linestyle="--", linewidth=1)
    times.set_yscale("log")
    # A linear ratio axis from 0: every tick labelled, and the 1x line (the bound) in view.
    ratios.set_ylim(bottom=0)
    for axes in (times, ratios):
        axes.set_xscale("log", base=2)
        axes.set_xticks(cubes)
        axes.set_xticklabels([str(cube) for cube in cubes])
        axes.minorticks_off()
        axes.set_xlabel("cube size (cells per edge)")
        axes.grid(True, which="major", alpha=0.3)
    times.set_ylabel("time per exchange (µs), median, p10–p90")
    ratios.set_ylabel("measured / model")
    handles, labels = times.get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=min(len(labels), 7), fontsize=8)
    machine = "; ".join(sorted({describe_machine(run["report"]) for run in runs}))
    figure.suptitle((args.title or "Halo exchange: measured and K-model lower bound")
                    + "\n" + machine, fontsize=10)
    figure.tight_layout(rect=(0, 0.07, 1, 1))
    figure.savefig(path, dpi=120)
    pyplot.close(figure)


def main(argv):
    args = parse_arguments(argv)
    pyplot = None
    if not args.no_plot:
        pyplot = load_pyplot()
        if pyplot is None:
            rerun_with_system_python()
            print(f"model_report: error: matplotlib is not importable by {sys.executable}: "
                  "install python3-matplotlib (scripts/setup.sh) or pass --no-plot",
                  file=sys.stderr)
            return EXIT_NO_MATPLOTLIB
    try:
        runs, rows = collect(args)
    except ReportError as error:
        print(f"model_report: error: {error}", file=sys.stderr)
        return 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    plot_name = None
    if pyplot is not None:
        plot_name = "model_report.png"
        plot(pyplot, args, runs, rows, args.out_dir / plot_name)
    (args.out_dir / "model_report.md").write_text(markdown(args, runs, rows, plot_name))
    summary = {
        "format": "haloflag-model-report", "version": 1,
        "model_params": str(args.params) if args.params else None,
        "runs": [{"file": run["file"], "cube": run["cube"], "model_bound_us": run["bound_us"],
                  "model_source": run["model_source"], "machine": describe_machine(run["report"]),
                  "date": run["report"].get("date")} for run in runs],
        "rows": rows,
    }
    (args.out_dir / "model_report.json").write_text(json.dumps(summary, indent=1) + "\n")
    written = ["model_report.md", "model_report.json"] + ([plot_name] if plot_name else [])
    print(f"model_report: wrote {', '.join(str(args.out_dir / name) for name in written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
