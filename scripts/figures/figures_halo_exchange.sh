#!/usr/bin/env bash
# Halo exchange figures (Figs. 12, 13 and 14 of Elis et al. 2024) on a GPU machine, one rank per
# GPU: a sweep over cube sizes with every strategy, the K-model bound beside it, box plots.
#   scripts/figures/figures_halo_exchange.sh [OUT_DIR] [halo_bench options...]
# OUT_DIR defaults to docs/results/<machine>/<UTC date> (scripts/figures/figures_common.sh names the
# machine). Steps, each announced by a "== [i/n]" line:
#   calibration/    scripts/calibrate_machine.sh (2 ranks only; skipped with HALOFLAG_PARAMS or
#                   HALOFLAG_CALIBRATE=0): this machine's parameters for the model line
#   halo_bench/     scripts/bench/bench_two_rank.sh or bench_four_rank.sh: per cube the JSON report
#                   (every sample), the table and the Chrome trace (trace_CUBE.json.gz)
#   model_report/   scripts/tables/model_report.py: time against cube size per strategy with the
#                   model's bound (Figs. 12 and 14)
#   halo_boxes/     scripts/figures/plot_halo_boxes.py: box plots per cube and strategy (Fig. 13)
#   machine.txt, commands.txt, README.md (what is where, and how to redraw)
# Environment:
#   HALOFLAG_RANKS       2 (default: the paper's down-scaled runs, Fig. 14) or 4
#   HALOFLAG_CUBES       cube sizes (200 400 800)
#   HALOFLAG_PARAMS      model parameter file for the bound instead of calibrating
#   HALOFLAG_CALIBRATE   1 (default for 2 ranks) or 0; 4 ranks never calibrate
#                        (calibrate_machine.sh maps 2 ranks per node), so their bound uses
#                        HALOFLAG_PARAMS or the paper's Power9 + V100 file; the plots say which
#   HALOFLAG_RESULTS_TAR also pack OUT_DIR into this .tar.gz (the one file a GPU machine returns)
#   HALOFLAG_RESULTS_MACHINE  the <machine> of the default OUT_DIR (default: from nvidia-smi)
#   HALOFLAG_BUILD_DIR, HALOFLAG_GPU   as for the bench_*.sh scripts (build-gpu, auto)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/figures/figures_common.sh
source "$root/scripts/figures/figures_common.sh"
figures_resolve_out "$root" "$@"
shift "$figures_shift"
out=$figures_out
ranks=${HALOFLAG_RANKS:-2}
export HALOFLAG_CUBES=${HALOFLAG_CUBES:-200 400 800}
case $ranks in
  2) bench=bench_two_rank.sh calibrate=${HALOFLAG_CALIBRATE:-1} ;;
  4) bench=bench_four_rank.sh calibrate=0 ;;
  *) echo "figures_halo_exchange.sh: HALOFLAG_RANKS=$ranks: 2 or 4" >&2; exit 2 ;;
esac
params=${HALOFLAG_PARAMS:-}
if [[ -n $params ]]; then
  if [[ ! -f $params ]]; then
    echo "figures_halo_exchange.sh: HALOFLAG_PARAMS=$params: no such file" >&2
    exit 2
  fi
  params=$(cd "$(dirname "$params")" && pwd)/$(basename "$params")
  calibrate=0
fi
machine=$(figures_machine_name)
steps=6
commands=$out/commands.txt
: >"$commands"
# run COMMAND...: records the command in commands.txt, then runs it.
run() {
  { printf '$'; printf ' %q' "$@"; echo; } >>"$commands"
  "$@"
}

figures_step 1 $steps "machine description: $out/machine.txt"
figures_machine_info "$out/machine.txt" "$root"

if [[ $calibrate == 1 ]]; then
  figures_step 2 $steps "calibration of the model for this machine: $out/calibration"
  run "$root/scripts/calibrate_machine.sh" "$out/calibration"
  params=$out/calibration/params.json
else
  paper_file="the paper's Power9 + V100 file"
  figures_step 2 $steps "calibration skipped (model parameters: ${params:-$paper_file})"
fi

figures_step 3 $steps "halo_bench, $ranks ranks, cubes $HALOFLAG_CUBES: $out/halo_bench"
bench_args=("$@")
[[ -n $params ]] && bench_args=(--params "$params" "${bench_args[@]}")
run "$root/scripts/bench/$bench" "$out/halo_bench" "${bench_args[@]}"
for trace in "$out"/halo_bench/trace_*.json; do
  [[ -f $trace ]] && gzip -f "$trace"
done

reports=()
for cube in $HALOFLAG_CUBES; do reports+=("$out/halo_bench/halo_bench_$cube.json"); done
python=$(figures_plot_python)
plot_args=()
if [[ -z $python ]]; then
  python=python3
  plot_args=(--no-plot)
  echo "figures_halo_exchange.sh: no python with matplotlib: tables only; draw later with" \
    "scripts/tables/model_report.py and scripts/figures/plot_halo_boxes.py on halo_bench/*.json" >&2
fi
if [[ -n ${HALOFLAG_PARAMS:-} ]]; then
  model_note="model parameters: $(basename "$params")"
elif [[ $calibrate == 1 ]]; then
  model_note="model calibrated on this machine"
else
  model_note="model: the paper's Power9 + V100 parameters, not this machine's"
fi
title="$machine, $ranks ranks ($model_note)"
boxes_title="$machine, $ranks ranks"

figures_step 4 $steps "time against cube size with the model's bound: $out/model_report"
run "$python" "$root/scripts/tables/model_report.py" "${reports[@]}" --out-dir "$out/model_report" \
  --title "$title" "${plot_args[@]}"

figures_step 5 $steps "box plots per cube and strategy: $out/halo_boxes"
run "$python" "$root/scripts/figures/plot_halo_boxes.py" "${reports[@]}" --out-dir "$out/halo_boxes" \
  --title "$boxes_title" "${plot_args[@]}"

figures_step 6 $steps "README${HALOFLAG_RESULTS_TAR:+ and $HALOFLAG_RESULTS_TAR}"
calibration_row=""
[[ -d $out/calibration ]] && calibration_row="| \`calibration/\` | this machine's model parameters \
(\`params.json\`) and the raw calibration runs |
"
if [[ ! -f $out/README.md ]]; then
  cat >"$out/README.md" <<EOF
# $machine, $(date -u +%Y-%m-%d): halo exchange, $ranks ranks

Written by \`scripts/figures/figures_halo_exchange.sh\` (HALOFLAG_RANKS=$ranks, cubes $HALOFLAG_CUBES);
\`machine.txt\` has the GPUs, topology, CPU, versions and commit, \`commands.txt\` every command.

| folder | what |
| --- | --- |
${calibration_row}| \`halo_bench/\` | per cube: JSON report with every sample, table, Chrome trace (\`trace_*.json.gz\`: open in https://ui.perfetto.dev) |
| \`model_report/\` | time against cube size per strategy with the K-model bound (Figs. 12 and 14) |
| \`halo_boxes/\` | box plots per cube and strategy (Fig. 13) |

Redraw from the JSON, from the repository root:

\`\`\`
d=${out#"$root"/}
scripts/tables/model_report.py \$d/halo_bench/halo_bench_*.json --out-dir \$d/model_report --title "$title"
scripts/figures/plot_halo_boxes.py \$d/halo_bench/halo_bench_*.json --out-dir \$d/halo_boxes --title "$boxes_title"
\`\`\`

![time against cube size](model_report/model_report.png)
![box plots](halo_boxes/halo_boxes.png)
EOF
fi
figures_tar "$out"
