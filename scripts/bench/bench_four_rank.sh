#!/usr/bin/env bash
# halo_bench with 4 ranks, one per GPU (node-local rank): the shipped 4-rank config for cube 200
# (comb_200_np4, 26 neighbours, periodic) and the same Comb-style geometry (--size N,N,N) for
# the other cubes of ${HALOFLAG_CUBES:-200 400 800}.
# Per cube under OUT_DIR: halo_bench_CUBE.json, .txt and trace_CUBE.json (Chrome trace events).
#   scripts/bench/bench_four_rank.sh OUT_DIR [halo_bench options...]
# Builds with the CUDA backend into build-gpu/ (HALOFLAG_BUILD_DIR to change; configured once,
# built incrementally every time so that a stale binary is never measured; log in
# OUT_DIR/build.log). Offline machines: carry .deps from scripts/stage_offline_deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_four_rank.sh OUT_DIR [halo_bench options...]}
shift
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 400 800}"
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
figures_build "$root" "$build" "$out/build.log" halo_bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
step=0
for cube in "${cubes[@]}"; do
  step=$((step + 1))
  workload=(--size "$cube,$cube,$cube")
  [[ $cube == 200 ]] && workload=(--config "$root/comb_configs/comb_200_np4.cfg")
  echo "== [$step/${#cubes[@]}] 4 ranks, cube $cube: ${workload[*]}" >&2
  command=(mpiexec -n 4 "$build/bench/halo_bench" "${workload[@]}" "$@"
    --json "$out/halo_bench_$cube.json" --trace "$out/trace_$cube.json")
  echo "\$ ${command[*]}" | tee "$out/halo_bench_$cube.txt"
  "${command[@]}" 2>&1 | tee -a "$out/halo_bench_$cube.txt"
done
