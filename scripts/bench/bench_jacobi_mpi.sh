#!/usr/bin/env bash
# Jacobi3D over MPI on two GPUs of one host, one rank per GPU (nvidia-h100-x2, nvidia-h200-x2):
# 32^3 cells per rank, 7- and 27-point, every peer over MPI (--transport mpi), the conventional,
# resident and stream variants alternating in one run (each checked bit for bit against the
# single-rank reference first), once per rank placement:
#   bound  mpiexec's default, each rank bound to one core: the stream variant's progress thread
#          shares its rank's core with the caller;
#   pe2    two cores per rank (--map-by slot:PE=2): the progress thread has a core of its own.
#   scripts/bench/bench_jacobi_mpi.sh OUT_DIR [haloflag_jacobi3d options...]
# Writes OUT_DIR/jacobi_mpi/ (machine.txt with the MPI library and its shared-memory copy
# mechanism, commands.txt, each run's table and JSON) and OUT_DIR/jacobi_mpi.tar.gz.
# Environment: HALOFLAG_PLACEMENTS ("bound pe2"), HALOFLAG_ITERATIONS (200 per timed run),
# HALOFLAG_REPEATS (20 timed runs per variant), HALOFLAG_BUILD_DIR (build-gpu),
# HALOFLAG_PREBUILT=1 to run the haloflag_jacobi3d already there without configuring,
# HALOFLAG_GPU (cuda; none runs the host backend, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_jacobi_mpi.sh OUT_DIR [haloflag_jacobi3d options...]}
shift
mkdir -p "$out/jacobi_mpi"
out=$(cd "$out" && pwd)
dir=$out/jacobi_mpi
figures_two_gpu_env "$root" bench_jacobi_mpi.sh
build=$HALOFLAG_BUILD_DIR
read -r -a placements <<<"${HALOFLAG_PLACEMENTS:-bound pe2}"
touch "$dir/commands.txt"

[[ ${HALOFLAG_PREBUILT:-0} == 1 ]] || figures_build "$root" "$build" "$dir/build.log" haloflag_jacobi3d
figures_machine_info "$dir/machine.txt" "$root"
figures_mpi_copy_info "$dir/machine.txt"

backend=(--backend "${HALOFLAG_GPU/none/host}")
for placement in "${placements[@]}"; do
  case $placement in
    bound) place=() ;;
    pe2) place=(--map-by slot:PE=2) ;;
    *) echo "bench_jacobi_mpi.sh: unknown placement '$placement' (bound, pe2)" >&2; exit 2 ;;
  esac
  for stencil in 7 27; do
    name=jacobi3d_s${stencil}_${placement}
    figures_run_logged "$dir/commands.txt" "$dir/$name.txt" \
      mpiexec "${place[@]}" -n 2 "$build/examples/jacobi3d/haloflag_jacobi3d" "${backend[@]}" \
      --stencil "$stencil" --local 32 --transport mpi --variant all --iterations "${HALOFLAG_ITERATIONS:-200}" \
      --warmup 2 --repeats "${HALOFLAG_REPEATS:-20}" --check --json "$dir/$name.json" "$@"
  done
done
tar -czf "$out/jacobi_mpi.tar.gz" -C "$out" jacobi_mpi
