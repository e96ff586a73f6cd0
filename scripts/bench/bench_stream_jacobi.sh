#!/usr/bin/env bash
# Stream-ordered exchanges measured on one GPU: Jacobi3D at 32^3 per rank, 7- and 27-point,
# the conventional and stream variants alternating in one run each (both checked bit for bit
# against the single-rank reference first), on 1 rank (periodic: every neighbour is the rank
# itself) and on 2 ranks sharing the GPU under MPS over the node transport and over MPI (the
# stream variant with its progress thread). The resident variant is left out: its cooperative
# grid would share the GPU with the stream variant's resident exchange kernels for the run.
#   scripts/bench/bench_stream_jacobi.sh OUT_DIR [haloflag_jacobi3d options...]
# Writes under OUT_DIR: machine.txt, commands.txt, and per run a table (.txt) and JSON report.
# Builds with the CUDA backend into build-gpu/ (HALOFLAG_BUILD_DIR to change).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_stream_jacobi.sh OUT_DIR [haloflag_jacobi3d options...]}
shift
out=$(mkdir -p "$out" && cd "$out" && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
export PATH=/usr/local/cuda/bin:$PATH
figures_build "$root" "$build" "$out/build.log" haloflag_jacobi3d
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
figures_machine_info "$out/machine.txt" "$root"

: >"$out/commands.txt"
run() {  # run NAME COMMAND...: the command and its output into NAME.txt
  local name=$1
  shift
  echo "\$ $*" | tee -a "$out/commands.txt" >"$out/$name.txt"
  echo "== $name" >&2
  "$@" 2>&1 | tee -a "$out/$name.txt"
}

jacobi=$build/examples/jacobi3d/haloflag_jacobi3d
common=(--local 32,32,32 --variant conventional,stream --check)
for stencil in 7 27; do
  run "jacobi3d_${stencil}_np1" mpiexec -n 1 "$jacobi" --stencil "$stencil" "${common[@]}" \
    --json "$out/jacobi3d_${stencil}_np1.json" "$@"
  for transport in auto mpi; do
    run "jacobi3d_${stencil}_np2_${transport}" "$root/scripts/gpu/run_with_mps.sh" 2 \
      mpiexec -n 2 "$jacobi" --stencil "$stencil" --transport "$transport" "${common[@]}" \
      --json "$out/jacobi3d_${stencil}_np2_${transport}.json" "$@"
  done
done
