#!/usr/bin/env bash
# Predicted against measured again, without a GPU: the fused kernels' halo sets of a published
# run (scripts/bench/bench_model_prediction.sh) fitted again from its raw file with this tree's fit,
# merged with the run's other calibration files into a parameter file, and the run's halo_bench
# reports predicted with it.
#   scripts/bench/refit_model_prediction.sh RUN_DIR OUT_DIR
# RUN_DIR holds calibration/ (pack_unpack.raw.json.gz and the files the merge takes, with the node
# grid probes grid_*.json when the run made them) and bench/halo_bench_{200,400,800}.json. Writes OUT_DIR/calibration (pack_unpack.json, params.json
# and their logs), OUT_DIR/model_report (scripts/tables/model_report.py), OUT_DIR/commands.txt and
# OUT_DIR/machine.txt. Builds the host tools it needs into build-refit/ (HALOFLAG_BUILD_DIR to
# change); nothing here needs a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
run=${1:?usage: refit_model_prediction.sh RUN_DIR OUT_DIR}
out=${2:?usage: refit_model_prediction.sh RUN_DIR OUT_DIR}
run=$(cd "$run" && pwd)
mkdir -p "$out/calibration"
out=$(cd "$out" && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build-refit}
cal=$run/calibration
for file in calibration/{pack_unpack.raw.json.gz,pingpong.json,concurrent.json,node.json} \
  calibration/{notify_latency.json,bulk_exchange.json,probe.json,params.json} \
  bench/halo_bench_{200,400,800}.json; do
  [[ -f $run/$file ]] || { echo "refit_model_prediction.sh: $run/$file: missing" >&2; exit 1; }
done

mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=none \
  -DHALOFLAG_BUILD_TESTS=OFF >"$build/refit_build.log"
cmake --build "$build" -j "$(nproc)" --target haloflag_calibrate_pack_unpack \
  haloflag_calibrate_merge haloflag_model_cli >>"$build/refit_build.log"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

: >"$out/commands.txt"
step() {  # step LOG COMMAND...: the command and its output into LOG
  local log=$1
  shift
  echo "\$ $*" | tee -a "$out/commands.txt" >"$log"
  "$@" >>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
}

raw=$out/calibration/pack_unpack.raw.json
gzip -dc "$cal/pack_unpack.raw.json.gz" >"$raw"
step "$out/calibration/pack_unpack.log" \
  "$build/bench/pack_unpack_calibration/haloflag_calibrate_pack_unpack" --refit "$raw" \
  --out "$out/calibration/pack_unpack.json"
rm "$raw"
# The run's own merge, with the refitted table in place of the run's.
grid_args=()
for grid in "$cal"/grid_*.json; do
  [[ -f $grid ]] && grid_args+=(--node-grid-probe "$grid")
done
machine=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["provenance"]["machine"])' \
  "$cal/params.json")
mapping=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["mapping"]
print(m["ranks_per_node"], m["ranks_per_socket"])' "$cal/params.json")
read -r per_node per_socket <<<"$mapping"
step "$out/calibration/merge.log" "$build/model/calibration/haloflag_calibrate_merge" \
  --pingpong "$cal/pingpong.json" --concurrent "$cal/concurrent.json" \
  --pack-unpack "$out/calibration/pack_unpack.json" --node "$cal/node.json" \
  --notify "$cal/notify_latency.json" --bulk-exchange "$cal/bulk_exchange.json" \
  --exchange-probe "$cal/probe.json" "${grid_args[@]}" --ranks-per-node "$per_node" \
  --ranks-per-socket "$per_socket" --machine "$machine" --out "$out/calibration/params.json"
# From the tree's root with paths relative to it where they lie inside, as the report shows them.
relative() { python3 -c 'import os, sys; p = os.path.relpath(sys.argv[1], sys.argv[2])
print(sys.argv[1] if p.startswith("..") else p)' "$1" "$root"; }
cd "$root"
step "$out/model_report.log" python3 scripts/tables/model_report.py \
  "$(relative "$run")"/bench/halo_bench_{200,400,800}.json \
  --params "$(relative "$out/calibration/params.json")" --model-cli "$build/model/haloflag_model" \
  --out-dir "$(relative "$out/model_report")" --title "measured, predicted (refitted) and bound"
figures_machine_info "$out/machine.txt" "$root"
echo "## run refitted: $run" >>"$out/machine.txt"
echo "refit_model_prediction.sh: $out/model_report/model_report.md"
