#!/usr/bin/env bash
# halo_bench on the shipped 2-rank 26-message configs (cubes 200, 400, 800): every strategy, one
# rank per GPU (node-local rank); per cube under OUT_DIR a JSON report, the table and a Chrome
# trace of the traced pass (halo_bench_CUBE.json, .txt, trace_CUBE.json).
#   scripts/bench_two_rank.sh OUT_DIR [halo_bench options...]
# Builds with the CUDA backend into build-gpu/ when it is not built yet (offline machines: carry
# .deps from scripts/stage_offline_deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench_two_rank.sh OUT_DIR [halo_bench options...]}
shift
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
mkdir -p "$out"
if [[ ! -x $build/bench/halo_bench ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >/dev/null
  cmake --build "$build" -j "$(nproc)" --target halo_bench >/dev/null
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for cube in 200 400 800; do
  config=$root/comb_configs/comb_${cube}_np2_reduced.cfg
  command=(mpiexec -n 2 "$build/bench/halo_bench" --config "$config" --json "$out/halo_bench_${cube}.json"
    --trace "$out/trace_${cube}.json" "$@")
  echo "\$ ${command[*]}" | tee "$out/halo_bench_${cube}.txt"
  "${command[@]}" 2>&1 | tee -a "$out/halo_bench_${cube}.txt"
done
