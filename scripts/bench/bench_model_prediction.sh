#!/usr/bin/env bash
# Predicted against measured on a GPU machine (docs/model.md, "Prediction per strategy"): this
# machine's calibration, then halo_bench with every strategy over both transports on the 2-rank
# configs of cubes 200, 400 and 800 (under MPS when the ranks share a GPU), then the report.
#   scripts/bench/bench_model_prediction.sh OUT_DIR
# Writes OUT_DIR/calibration (scripts/calibrate_machine.sh; the parameter file is cached for
# halo_bench as usual), OUT_DIR/bench (scripts/bench/bench_two_rank.sh: JSON, table and trace per cube)
# and OUT_DIR/model_report (scripts/tables/model_report.py: table, plot, JSON). Offline machines: carry
# .deps from scripts/stage_offline_deps.sh. HALOFLAG_BUILD_DIR as for the scripts it runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench_model_prediction.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$root/scripts/calibrate_machine.sh" "$out/calibration"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$root/scripts/gpu/run_with_mps.sh" 2 "$root/scripts/bench/bench_two_rank.sh" "$out/bench" \
  --transport mpi,node --params "$out/calibration/params.json"
gzip -f "$out"/bench/trace_*.json
python3 "$root/scripts/tables/model_report.py" "$out"/bench/halo_bench_{200,400,800}.json \
  --out-dir "$out/model_report" --title "measured, predicted and bound"
