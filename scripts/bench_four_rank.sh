#!/usr/bin/env bash
# halo_bench with 4 ranks, one per GPU (node-local rank): the shipped 4-rank config
# (comb_200_np4, 26 neighbours, periodic) and the same Comb-style geometry at cubes 400 and 800.
# Per case under OUT_DIR: halo_bench_CASE.json, .txt and trace_CASE.json (Chrome trace events).
#   scripts/bench_four_rank.sh OUT_DIR [halo_bench options...]
# Builds with the CUDA backend into build-gpu/ when it is not built yet (offline machines: carry
# .deps from scripts/stage_offline_deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench_four_rank.sh OUT_DIR [halo_bench options...]}
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
run_case() {
  local name=$1
  shift
  local command=(mpiexec -n 4 "$build/bench/halo_bench" "$@" --json "$out/halo_bench_$name.json"
    --trace "$out/trace_$name.json")
  echo "\$ ${command[*]}" | tee "$out/halo_bench_$name.txt"
  "${command[@]}" 2>&1 | tee -a "$out/halo_bench_$name.txt"
}
run_case 200 --config "$root/comb_configs/comb_200_np4.cfg" "$@"
for cube in 400 800; do
  run_case "$cube" --size "$cube,$cube,$cube" "$@"
done
