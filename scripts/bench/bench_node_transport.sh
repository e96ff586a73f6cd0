#!/usr/bin/env bash
# The node transport measured on one GPU shared by 2 ranks under MPS (the lent single-GPU
# machines): every strategy over each transport in alternating rounds on the 2-rank 26-message
# configs of cubes 200, 400 and 800; resident and comb_fused with the pinned-host fallback
# forced at cube 200; Jacobi3D at 32^3 per rank, 7- and 27-point, over each transport (its
# resident grid of 64 blocks, so that the two ranks' cooperative grids fit on the GPU together).
#   scripts/bench/bench_node_transport.sh OUT_DIR [halo_bench options...]
# Writes under OUT_DIR: machine.txt, commands.txt, and per run a table (.txt) and JSON report.
# Builds with the CUDA backend into build-gpu/ (HALOFLAG_BUILD_DIR to change). Starts an MPS
# daemon for the runs and stops it after (scripts/gpu/run_with_mps.sh says why it is needed).
# Cubes: ${HALOFLAG_CUBES:-200 400 800}; Jacobi3D is skipped with HALOFLAG_SKIP_JACOBI=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_node_transport.sh OUT_DIR [halo_bench options...]}
shift
out=$(mkdir -p "$out" && cd "$out" && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 400 800}"
export PATH=/usr/local/cuda/bin:$PATH
figures_build "$root" "$build" "$out/build.log" halo_bench haloflag_jacobi3d
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "uncommitted changes:"; git -C "$root" status --short 2>/dev/null || true
  echo; nvidia-smi || true
  echo; nvcc --version || true
  echo; mpiexec --version || true
  echo; lscpu | head -20 || true
} >"$out/machine.txt" 2>&1

mps_dir=$(mktemp -d)
export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
trap 'echo quit | nvidia-cuda-mps-control; rm -rf "$mps_dir"' EXIT
echo "MPS started: 2 ranks share the GPU" >>"$out/machine.txt"

: >"$out/commands.txt"
run() {  # run NAME COMMAND...: the command and its output into NAME.txt
  local name=$1
  shift
  echo "\$ $*" | tee -a "$out/commands.txt" >"$out/$name.txt"
  echo "== $name" >&2
  "$@" 2>&1 | tee -a "$out/$name.txt"
}

for cube in "${cubes[@]}"; do
  config=$root/comb_configs/comb_${cube}_np2_reduced.cfg
  run "halo_bench_${cube}" mpiexec -n 2 "$build/bench/halo_bench" --config "$config" \
    --transport mpi,auto --json "$out/halo_bench_${cube}.json" --trace "$out/trace_${cube}.json" "$@"
  gzip -f "$out/trace_${cube}.json"
done
run halo_bench_200_host_mapping mpiexec -n 2 "$build/bench/halo_bench" \
  --config "$root/comb_configs/comb_200_np2_reduced.cfg" --strategy comb_fused,resident \
  --transport node --node-mapping host --json "$out/halo_bench_200_host_mapping.json" "$@"

if [[ ${HALOFLAG_SKIP_JACOBI:-0} != 1 ]]; then
  for stencil in 7 27; do
    for transport in mpi auto; do
      run "jacobi3d_${stencil}_${transport}" mpiexec -n 2 "$build/examples/jacobi3d/haloflag_jacobi3d" \
        --stencil "$stencil" --local 32,32,32 --transport "$transport" --resident-blocks 64 \
        --json "$out/jacobi3d_${stencil}_${transport}.json"
    done
  done
fi
