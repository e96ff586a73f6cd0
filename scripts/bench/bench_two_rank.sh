#!/usr/bin/env bash
# halo_bench on the 2-rank 26-message configs (the paper's down-scaled runs, Fig. 14): every
# strategy, one rank per GPU (node-local rank); per cube under OUT_DIR a JSON report, the table
# and a Chrome trace of the traced pass (halo_bench_CUBE.json, .txt, trace_CUBE.json).
#   scripts/bench/bench_two_rank.sh OUT_DIR [halo_bench options...]
# Cubes: ${HALOFLAG_CUBES:-200 400 800}. Each uses comb_configs/comb_CUBE_np2_reduced.cfg; a cube
# without a shipped config gets one from haloflag_gen_config, written the way
# comb_configs/regenerate.sh writes the shipped ones, into OUT_DIR/configs/.
# Builds with the CUDA backend into build-gpu/ (HALOFLAG_BUILD_DIR to change; configured once,
# built incrementally every time so that a stale binary is never measured; log in
# OUT_DIR/build.log). Offline machines: carry .deps from scripts/stage_offline_deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_two_rank.sh OUT_DIR [halo_bench options...]}
shift
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 400 800}"
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
figures_build "$root" "$build" "$out/build.log" halo_bench haloflag_gen_config
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
step=0
for cube in "${cubes[@]}"; do
  step=$((step + 1))
  config=$root/comb_configs/comb_${cube}_np2_reduced.cfg
  if [[ ! -f $config ]]; then
    mkdir -p "$out/configs"
    config=$out/configs/comb_${cube}_np2_reduced.cfg
    "$build/comb_configs/haloflag_gen_config" --size "$cube" --divide 4,4,4 --periodic 1,1,1 \
      --ghost 1 --vars 3 --reduce-to-2-ranks 21 --output "$config"
  fi
  echo "== [$step/${#cubes[@]}] 2 ranks, cube $cube: $config" >&2
  command=(mpiexec -n 2 "$build/bench/halo_bench" --config "$config" --json "$out/halo_bench_${cube}.json"
    --trace "$out/trace_${cube}.json" "$@")
  echo "\$ ${command[*]}" | tee "$out/halo_bench_${cube}.txt"
  "${command[@]}" 2>&1 | tee -a "$out/halo_bench_${cube}.txt"
done
