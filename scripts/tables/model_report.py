#!/usr/bin/env python3
"""Measured against modeled: halo_bench reports (one per cube) beside the model's prediction for
each strategy and its lower bound.

    scripts/tables/model_report.py RUN_200.json RUN_400.json RUN_800.json --out-dir DIR
        [--params PARAMS.json [--model-cli build/model/haloflag_model]]
        [--strategies NAME,NAME...] [--title TEXT] [--no-plot]

Writes into DIR:
  model_report.md    a row per strategy, transport and cube (measured median, p10-p90, predicted,
                     bound, predicted/measured, the prediction's error, measured/bound, and the
                     checks "within 20%" and "bound <= measured"), a strategy x cube table of
                     measured/bound, a strategy x (transport, cube) table of the prediction's
                     error, and how many rows meet each target with the rows that miss one
  model_report.png   time per exchange against cube size, one panel per transport used: measured
                     medians solid with p10-p90 bars, the prediction dotted in the same colour,
                     the bound dashed black (like Fig. 12 of Elis et al. 2024); below each,
                     predicted/measured with the 0.8-1.2 band
  model_report.json  the same numbers for other tools

Reports may be gzipped (.json.gz). The prediction and the bound are those each halo_bench report
carries (computed with the parameter file that run used), unless --params is given: then
haloflag_model predicts each run's config with that file, once per strategy and transport. The
config is the report's workload.config_file or, when that path does not exist here, the file of
the same name in comb_configs/.

Needs matplotlib for the plot (Debian: python3-matplotlib, installed by scripts/setup.sh). When
the interpreter running this script lacks it but /usr/bin/python3 has it (a pyenv or venv
python first on PATH), the script runs itself again with /usr/bin/python3. --no-plot needs only
the standard library.
"""

import argparse
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORT_FORMAT = "haloflag-halo-bench"
SYSTEM_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "HALOFLAG_MODEL_REPORT_REEXEC"
EXIT_NO_MATPLOTLIB = 3
# A prediction is on target when it is within this fraction of the measured median.
TARGET_ERROR = 0.20
TUNED_SUFFIX = ":tuned"
# The transports the model predicts; others (a run with both, "mixed") come after them.
MODELED_TRANSPORTS = ("mpi", "node")


class ReportError(Exception):
    """A problem with an input, named with its file."""


class ModelFailed(ReportError):
    """haloflag_model ended with an error; its message is kept for the rows it leaves empty."""

    def __init__(self, text, message):
        super().__init__(text)
        self.message = message


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="halo_bench reports beside the model's prediction per strategy and its lower "
        "bound: a markdown table and a Fig.-12-like plot.")
    parser.add_argument("reports", nargs="+", type=Path,
                        help="halo_bench JSON reports, one per cube size")
    parser.add_argument("--out-dir", type=Path, required=True, help="folder for the outputs")
    parser.add_argument("--params", type=Path,
                        help="model parameter file: predict each config, strategy and transport "
                        "with haloflag_model instead of using the numbers in the reports")
    parser.add_argument("--model-cli", type=Path,
                        help="haloflag_model executable (default: build/model/haloflag_model, "
                        "then build-gpu/model/haloflag_model, then PATH)")
    parser.add_argument("--strategies",
                        help="comma-separated strategies to report, in this order: a report's "
                        "names (comb_fused/mpi) or names without the transport (comb_fused: "
                        "every transport) (default: every strategy of the reports; Fig. 12 of "
                        "the paper: comb_fused,stream_base,stream_notify)")
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


def ranks_per_gpu_of(report):
    """Ranks sharing one GPU in the run, for haloflag_model --ranks-per-gpu (reports from
    before gpu_sharing: one)."""
    return int((report.get("gpu_sharing") or {}).get("ranks_per_gpu") or 1)


def ask_model(model_cli, config, params, strategy, transport, ranks_per_gpu):
    """haloflag_model's bound (us) and its prediction for one strategy, the prediction in the
    report's form (microseconds) so that both sources read alike from here on."""
    command = [str(model_cli), str(config), "--params", str(params), "--transport", transport,
               "--strategy", strategy, "--ranks-per-gpu", str(ranks_per_gpu)]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "prediction.json"
        run = subprocess.run(command + ["--json", str(out)], capture_output=True, text=True)
        if run.returncode != 0:
            # The rows keep its last line (its "haloflag_model: error: ..."); the whole text
            # goes with the error that stops the report.
            last_line = (run.stderr.strip().splitlines() or ["no message"])[-1]
            raise ModelFailed(f"{' '.join(command)} failed ({run.returncode}): "
                              f"{run.stderr.strip()}", last_line)
        try:
            answer = json.loads(out.read_text())
            bound_us = answer["total"]["lower_bound_s"] * 1e6
            given = answer.get("prediction")
            prediction = None if not given else {
                "predicted_us": given["predicted_s"] * 1e6,
                "phases": [{"name": phase["name"], "us": phase["seconds"] * 1e6}
                           for phase in given.get("phases") or []],
                "fixed_us": (None if given.get("fixed_s") is None else given["fixed_s"] * 1e6),
                "terms_source": str(params),
                "notes": list(given.get("notes") or []),
            }
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
            raise ReportError(f"{' '.join(command)}: unreadable --json output "
                              f"({type(error).__name__}: {error})") from error
    reason = "" if prediction else (answer.get("prediction_unavailable_reason")
                                    or "haloflag_model made no prediction")
    return {"bound_us": bound_us, "bound_reason": "", "prediction": prediction,
            "prediction_reason": reason}


def modeled_in_report(run, entry):
    """The bound and prediction the run computed for the entry."""
    report = run["report"]
    # The entry's bound is its transport's; old reports have only the run's (MPI).
    bound = entry["model_bound_us"] if "model_bound_us" in entry \
        else report["model"].get("bound_us")
    bound_reason = ""
    if bound is None:
        model = (report.get("model_node_transport") if transport_of(entry) == "node"
                 else report["model"]) or {}
        bound_reason = model.get("unavailable_reason") or "the report has no bound"
    prediction = entry.get("prediction")
    if not isinstance(prediction, dict) or prediction.get("predicted_us") is None:
        prediction = None
    prediction_reason = "" if prediction else (
        run["prediction_unavailable_reason"]
        or ("the report predates predictions" if "prediction" not in entry
            else "no prediction for this strategy"))
    return {"bound_us": bound, "bound_reason": bound_reason, "prediction": prediction,
            "prediction_reason": prediction_reason}


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


def label_of(entry):
    """The name without its "/transport" suffix, so that one strategy over two transports shares
    a colour and a line of the error table."""
    name = entry.get("name", "?")
    asked = entry.get("transport")
    if asked and name.endswith("/" + asked):
        return name[:-len(asked) - 1]
    return name


def base_strategy_of(entry):
    """The strategy the model predicts: the model has no tuned order of work, so a ":tuned" row
    is compared with the untuned order's prediction."""
    base = entry.get("strategy") or label_of(entry)
    return base[:-len(TUNED_SUFFIX)] if base.endswith(TUNED_SUFFIX) else base


def transport_of(entry):
    """The transport the row's messages used; reports from before the node transport used MPI."""
    return entry.get("transport_used") or entry.get("transport") or "mpi"


def ratio(numerator, denominator):
    return numerator / denominator if numerator is not None and denominator else None


def make_row(run, entry, modeled):
    bound, prediction = modeled["bound_us"], modeled["prediction"]
    summary = entry.get("summary_us")
    median = summary.get("median") if summary else None
    predicted = prediction.get("predicted_us") if prediction else None
    error = (predicted - median) / median if predicted is not None and median else None
    label = label_of(entry)
    tuned = bool(entry.get("tuned")) or label.endswith(TUNED_SUFFIX)
    notes = list((prediction or {}).get("notes") or [])
    if prediction and tuned:
        notes.append("the untuned order's prediction: the model has no tuned order of work")
    return {
        "strategy": entry.get("name", "?"),
        "label": label,
        "base_strategy": base_strategy_of(entry),
        "tuned": tuned,
        "transport": transport_of(entry),
        "transport_asked": entry.get("transport") or transport_of(entry),
        "cube": run["cube"],
        "median_us": median,
        "p10_us": summary.get("p10") if summary else None,
        "p90_us": summary.get("p90") if summary else None,
        "verified": bool((entry.get("verification") or {}).get("passed")),
        "model_bound_us": bound,
        "bound_unavailable_reason": modeled["bound_reason"],
        "measured_over_model": ratio(median, bound),
        "predicted_us": predicted,
        "prediction_phases_us": (prediction or {}).get("phases") or [],
        "prediction_fixed_us": (prediction or {}).get("fixed_us"),
        "prediction_source": ((prediction or {}).get("terms_source")
                              or (run["prediction_params_file"] if prediction else None)),
        "prediction_notes": notes,
        "prediction_unavailable_reason": modeled["prediction_reason"],
        "predicted_over_measured": ratio(predicted, median),
        "prediction_error_pct": None if error is None else 100 * error,
        # None where there is nothing to check: such rows are not counted.
        "within_20pct": None if error is None else abs(error) <= TARGET_ERROR,
        "bound_at_most_measured": (None if bound is None or median is None
                                   else bound <= median),
    }


def pick_strategies(run, wanted):
    """The report's entries, all or those named (by full name or by name without transport)."""
    entries = run["report"]["strategies"]
    if not wanted:
        return entries
    picked, missing = [], []
    for name in wanted:
        matches = [entry for entry in entries
                   if entry.get("name") == name or label_of(entry) == name]
        if not matches:
            missing.append(name)
        picked += [entry for entry in matches if entry not in picked]
    if missing:
        raise ReportError(f"{run['file']}: no strategy {', '.join(missing)} (it has "
                          f"{', '.join(entry.get('name', '?') for entry in entries)})")
    return picked


def collect(args):
    """One record per (run, strategy), runs sorted by cube."""
    model_cli = find_model_cli(args.model_cli) if args.params else None
    if args.params and not args.params.exists():
        raise ReportError(f"--params {args.params}: no such file")
    runs = []
    for path in args.reports:
        report = read_report(path)
        model = report["model"]
        run = {"file": str(path), "cube": cube_of(report, path), "report": report,
               "ranks_per_gpu": ranks_per_gpu_of(report)}
        if args.params:
            run.update(config=config_of(report, path), model_source=str(args.params),
                       prediction_params_file=str(args.params), prediction_unavailable_reason="")
        else:
            run.update(model_source=model.get("params_file", "?"),
                       prediction_params_file=model.get("prediction_params_file"),
                       prediction_unavailable_reason=model.get("prediction_unavailable_reason")
                       or "")
        runs.append(run)
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
    answers = {}  # one haloflag_model run per (config, strategy, transport, ranks per GPU)
    rows = []
    for run in runs:
        for entry in pick_strategies(run, wanted):
            if not args.params:
                rows.append(make_row(run, entry, modeled_in_report(run, entry)))
                continue
            used = transport_of(entry)
            # "auto" models what a mixed run did: node within a node, MPI between nodes.
            asked = used if used in MODELED_TRANSPORTS else "auto"
            key = (str(run["config"]), base_strategy_of(entry), asked, run["ranks_per_gpu"])
            if key not in answers:
                try:
                    answers[key] = ask_model(model_cli, run["config"], args.params, *key[1:])
                except ModelFailed as error:
                    # Rows the model cannot do (node rows with a file without node_transport)
                    # keep their measurements; the header says why they have no numbers.
                    reason = f"haloflag_model --transport {asked} failed: {error.message}"
                    answers[key] = {"bound_us": None, "bound_reason": reason, "prediction": None,
                                    "prediction_reason": reason, "error": str(error)}
            modeled = dict(answers[key])
            if used not in MODELED_TRANSPORTS:
                modeled.update(prediction=None,
                               prediction_reason=f"the model predicts one transport, not {used}")
            rows.append(make_row(run, entry, modeled))
    failed = [answer for answer in answers.values() if answer.get("error")]
    if answers and len(failed) == len(answers):
        raise ReportError(failed[0]["error"])
    rows = sort_rows(rows)
    for run in runs:
        own = [row for row in rows if row["cube"] == run["cube"]]
        run["bounds_us"] = {transport: bound_for(own, transport, run["cube"])
                            for transport in transports_in_order(own)}
        # The run's bound: the report's (MPI), or with --params the MPI rows' from haloflag_model.
        run["bound_us"] = (run["bounds_us"].get("mpi") if args.params
                           else run["report"]["model"].get("bound_us"))
    return runs, rows


def in_order(values):
    """The distinct values in order of first appearance."""
    seen = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def transports_in_order(rows):
    present = in_order(row["transport"] for row in rows)
    return ([name for name in MODELED_TRANSPORTS if name in present]
            + [name for name in present if name not in MODELED_TRANSPORTS])


def sort_rows(rows):
    """Strategy by strategy (their order in the reports), transport, then cube."""
    labels = in_order(row["label"] for row in rows)
    transports = transports_in_order(rows)
    names = in_order(row["strategy"] for row in rows)
    return sorted(rows, key=lambda row: (labels.index(row["label"]),
                                         transports.index(row["transport"]),
                                         names.index(row["strategy"]), row["cube"]))


def bound_for(rows, transport, cube):
    """The bound of a transport and cube (every strategy's is the same)."""
    return next((row["model_bound_us"] for row in rows if row["transport"] == transport
                 and row["cube"] == cube and row["model_bound_us"] is not None), None)


def number(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def times_x(value):
    return "-" if value is None else f"{value:.2f}x"


def percent(value):
    return "-" if value is None else f"{value:+.1f}%"


def check(value):
    return "-" if value is None else ("yes" if value else "**no**")


def transport_cell(row):
    if row["transport_asked"] == row["transport"]:
        return row["transport"]
    return f"{row['transport_asked']} → {row['transport']}"


def describe_row(row):
    return f"{row['label']} ({transport_cell(row)}), cube {row['cube']}"


def tally(rows):
    """How many rows meet each target; rows without a prediction (or bound) are not counted."""
    predicted = [row for row in rows if row["within_20pct"] is not None]
    bounded = [row for row in rows if row["bound_at_most_measured"] is not None]
    misses = []
    for row in rows:
        missed = []
        if row["within_20pct"] is False:
            missed.append("within 20%")
        if row["bound_at_most_measured"] is False:
            missed.append("bound <= measured")
        if missed:
            misses.append({"strategy": row["strategy"], "transport": row["transport"],
                           "cube": row["cube"], "missed": missed})
    return {
        "rows_with_prediction": len(predicted),
        "predicted_within_20pct": sum(1 for row in predicted if row["within_20pct"]),
        "rows_with_bound": len(bounded),
        "bound_above_measured": sum(1 for row in bounded if not row["bound_at_most_measured"]),
        "misses": misses,
    }


def summary_lines(rows, counts):
    n, m = counts["rows_with_prediction"], counts["rows_with_bound"]
    lines = [f"**predicted within 20% of measured: {counts['predicted_within_20pct']} of {n} "
             f"rows; bound above measured: {counts['bound_above_measured']} of {m} rows**", ""]
    if not counts["misses"]:
        lines.append("No row misses a target.")
        return lines
    lines.append("Rows that miss a target:")
    lines.append("")
    for row in rows:
        reasons = []
        if row["within_20pct"] is False:
            reasons.append(f"predicted {number(row['predicted_us'])} µs against measured "
                           f"{number(row['median_us'])} µs "
                           f"({percent(row['prediction_error_pct'])})")
        if row["bound_at_most_measured"] is False:
            reasons.append(f"bound {number(row['model_bound_us'])} µs above measured "
                           f"{number(row['median_us'])} µs")
        if reasons:
            lines.append(f"- {describe_row(row)}: " + "; ".join(reasons))
    return lines


def prediction_header(args, runs, rows):
    """Where the predictions come from, and why some rows have none."""
    lines = []
    if args.params:
        sharing = sorted({run["ranks_per_gpu"] for run in runs})
        lines.append(f"- prediction: per strategy and transport (docs/model.md) from "
                     f"`haloflag_model --strategy` with `{args.params}`, "
                     f"{', '.join(map(str, sharing))} rank(s) per GPU")
    else:
        files = in_order(run["prediction_params_file"] for run in runs
                         if run["prediction_params_file"])
        if files:
            lines.append("- prediction: per strategy and transport (docs/model.md) as each run "
                         "computed it, parameters " + ", ".join(f"`{name}`" for name in files))
    for what, key in (("bound", "bound_unavailable_reason"),
                      ("prediction", "prediction_unavailable_reason")):
        reasons = {}
        for row in rows:
            if row[key]:
                reasons.setdefault(row[key], []).append(row)
        for reason, without in reasons.items():
            lines.append(f"- no {what} for {len(without)} row(s): {reason}")
    if any(row["tuned"] and row["predicted_us"] is not None for row in rows):
        lines.append("- `:tuned` rows are compared with the untuned order's prediction (the "
                     "model has no tuned order of work)")
    return lines


def markdown(args, runs, rows, plot_name):
    first = runs[0]["report"]
    machines = sorted({describe_machine(run["report"]) for run in runs})
    cubes = [run["cube"] for run in runs]
    transports = transports_in_order(rows)
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
    lines += prediction_header(args, runs, rows)
    lines.append("- runs: " + "; ".join(
        f"cube {run['cube']}: `{run['file']}` ({run['report'].get('date', '?')}, "
        f"{(run['report'].get('parameters') or {}).get('iterations', '?')} timed exchanges)"
        for run in runs))
    lines += ["", "Times in microseconds per exchange (the slowest rank's); measured = median over "
              "the timed exchanges; error = (predicted − measured) / measured; transport: the "
              "one the messages used (asked → used where they differ).", ""]
    lines.append("| strategy | transport | cube | measured median | p10 – p90 | predicted | bound "
                 "| predicted / measured | error | measured / bound | within 20% "
                 "| bound ≤ measured |")
    lines.append("| --- | --- |" + " ---: |" * 8 + " :---: | :---: |")
    for row in rows:
        spread = ("-" if row["p10_us"] is None
                  else f"{number(row['p10_us'])} – {number(row['p90_us'])}")
        unverified = "" if row["verified"] else " (not verified)"
        lines.append(
            f"| {row['label']}{unverified} | {transport_cell(row)} | {row['cube']} | "
            f"{number(row['median_us'])} | {spread} | {number(row['predicted_us'])} | "
            f"{number(row['model_bound_us'])} | {times_x(row['predicted_over_measured'])} | "
            f"{percent(row['prediction_error_pct'])} | {times_x(row['measured_over_model'])} | "
            f"{check(row['within_20pct'])} | {check(row['bound_at_most_measured'])} |")

    lines += ["", "measured / bound per strategy and cube:", ""]
    lines.append("| strategy | " + " | ".join(str(cube) for cube in cubes) + " |")
    lines.append("| --- |" + " ---: |" * len(cubes))
    for name in in_order(row["strategy"] for row in rows):
        cells = []
        for cube in cubes:
            row = next((r for r in rows if r["strategy"] == name and r["cube"] == cube), None)
            cells.append(times_x(row["measured_over_model"] if row else None))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for transport in transports:
        bounds = " | ".join(number(bound_for(rows, transport, cube)) for cube in cubes)
        lines.append(f"| *model bound, {transport} (µs)* | {bounds} |")

    lines += ["", "prediction error, (predicted − measured) / measured, per strategy, transport "
              "used and cube:", ""]
    columns = [(transport, cube) for transport in transports for cube in cubes]
    lines.append("| strategy | " + " | ".join(f"{transport} {cube}" for transport, cube in columns)
                 + " |")
    lines.append("| --- |" + " ---: |" * len(columns))
    for label in in_order(row["label"] for row in rows):
        cells = []
        for transport, cube in columns:
            # Two rows share a cell when "auto" used what another row asked for.
            errors = [percent(r["prediction_error_pct"]) for r in rows if r["label"] == label
                      and r["transport"] == transport and r["cube"] == cube]
            cells.append(" / ".join(errors) or "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    lines += [""] + summary_lines(rows, tally(rows))
    if plot_name:
        lines += ["", f"![time per exchange against cube size]({plot_name})"]
    return "\n".join(lines) + "\n"


def plot(pyplot, args, runs, rows, path):
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import NullLocator

    cubes = [run["cube"] for run in runs]
    transports = transports_in_order(rows)
    labels = in_order(row["label"] for row in rows)
    palette = pyplot.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    colour = {label: palette(index % palette.N) for index, label in enumerate(labels)}
    # Reports from before the predictions: the lower panels keep measured/bound.
    predicted = any(row["predicted_us"] is not None for row in rows)
    figure, panels = pyplot.subplots(2, len(transports), figsize=(6.5 * len(transports), 9),
                                     squeeze=False)
    key = "predicted_over_measured" if predicted else "measured_over_model"
    for column, transport in enumerate(transports):
        times, ratios = panels[0][column], panels[1][column]
        mine = [row for row in rows if row["transport"] == transport]
        if not any(row[key] is not None for row in mine):
            ratios.text(0.5, 0.5, "no prediction" if predicted else "no bound",
                        transform=ratios.transAxes, ha="center", va="center", color="grey")
        for name in in_order(row["strategy"] for row in mine):
            own = [row for row in mine if row["strategy"] == name]
            tint = colour[own[0]["label"]]
            timed = [row for row in own if row["median_us"] is not None]
            if timed:
                times.errorbar([row["cube"] for row in timed], [row["median_us"] for row in timed],
                               yerr=[[row["median_us"] - (row["p10_us"] or row["median_us"])
                                      for row in timed],
                                     [(row["p90_us"] or row["median_us"]) - row["median_us"]
                                      for row in timed]],
                               color=tint, marker="o", capsize=3)
            foreseen = [row for row in own if row["predicted_us"] is not None]
            if foreseen:
                times.plot([row["cube"] for row in foreseen],
                           [row["predicted_us"] for row in foreseen],
                           color=tint, linestyle=":", marker="x", linewidth=1.8)
            with_ratio = [row for row in own if row[key] is not None]
            if with_ratio:
                ratios.plot([row["cube"] for row in with_ratio], [row[key] for row in with_ratio],
                            color=tint, marker="o")
        bounded = [(cube, bound_for(mine, transport, cube)) for cube in cubes]
        bounded = [(cube, bound) for cube, bound in bounded if bound is not None]
        if bounded:
            times.plot([cube for cube, _ in bounded], [bound for _, bound in bounded],
                       "k--", linewidth=2)
        if predicted:
            ratios.axhspan(1 - TARGET_ERROR, 1 + TARGET_ERROR, color="tab:green", alpha=0.15)
            ratios.axhline(1.0, color="k", linewidth=1)
            ratios.set_ylabel("predicted / measured")
        else:
            ratios.axhline(1.0, color="k", linestyle="--", linewidth=1)
            ratios.set_ylabel("measured / bound")
        times.set_title(f"transport: {transport}", fontsize=10)
        times.set_yscale("log")
        times.set_ylabel("time per exchange (µs)")
        # A linear ratio axis from 0: every tick labelled, and the 1x line in view.
        ratios.set_ylim(bottom=0)
        for axes in (times, ratios):
            axes.set_xscale("log", base=2)
            # Fixed limits: a panel with nothing to plot still spans the cubes.
            axes.set_xlim(cubes[0] / 1.15, cubes[-1] * 1.15)
            axes.set_xticks(cubes)
            axes.set_xticklabels([str(cube) for cube in cubes])
            axes.xaxis.set_minor_locator(NullLocator())
            axes.set_xlabel("cube size (cells per edge)")
            axes.grid(True, which="major", alpha=0.3)
    # One legend for every panel: a colour per strategy, then what each line style means.
    handles = [Line2D([], [], color=colour[label], marker="o", label=label) for label in labels]
    handles.append(Line2D([], [], color="grey", marker="o", label="measured median, p10–p90"))
    if predicted:
        handles.append(Line2D([], [], color="grey", linestyle=":", marker="x",
                              label="prediction"))
    handles.append(Line2D([], [], color="k", linestyle="--", linewidth=2,
                          label="K-model lower bound"))
    if predicted:
        handles.append(Patch(color="tab:green", alpha=0.15, label="prediction within 20%"))
    columns = min(len(handles), 6)
    legend_rows = math.ceil(len(handles) / columns)
    figure.legend(handles=handles, loc="lower center", ncol=columns, fontsize=8)
    machine = "; ".join(sorted({describe_machine(run["report"]) for run in runs}))
    figure.suptitle((args.title or "Halo exchange: measured, predicted and K-model lower bound")
                    + "\n" + machine, fontsize=10)
    figure.tight_layout(rect=(0, 0.02 + 0.03 * legend_rows, 1, 1))
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
        "format": "haloflag-model-report", "version": 2,
        "model_params": str(args.params) if args.params else None,
        "runs": [{"file": run["file"], "cube": run["cube"], "model_bound_us": run["bound_us"],
                  "bounds_us": run["bounds_us"], "model_source": run["model_source"],
                  "prediction_params_file": run["prediction_params_file"],
                  "prediction_unavailable_reason": run["prediction_unavailable_reason"],
                  "ranks_per_gpu": run["ranks_per_gpu"],
                  "machine": describe_machine(run["report"]),
                  "date": run["report"].get("date")} for run in runs],
        "rows": rows,
        "summary": tally(rows),
    }
    (args.out_dir / "model_report.json").write_text(json.dumps(summary, indent=1) + "\n")
    written = ["model_report.md", "model_report.json"] + ([plot_name] if plot_name else [])
    print(f"model_report: wrote {', '.join(str(args.out_dir / name) for name in written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
