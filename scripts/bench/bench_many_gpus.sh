#!/usr/bin/env bash
# Halo exchanges on the G GPUs of one host (4 or 8: nvidia-h100-x4, -x8, ...), one MPI rank per
# GPU, in parts of one device call each:
#   exchanges  every strategy over node and over mpi on the 4- and 8-rank reductions of rank 21
#              (comb_CUBE_npN_reduced.cfg, 3 and 7 peers per rank) of HALOFLAG_CUBES (200 800);
#              then the same split into nodes of 2 ranks (and of 4 on 8 ranks) with --transport
#              auto, so that one exchange sends to some peers by node and to others by MPI
#   weak       resident and comb_fused over node on the 2-, 4- and 8-rank reductions: the same
#              subdomain per rank, so the times compare weak scaling
#   jacobi     examples/jacobi3d over node on 1, 2, 4 and 8 ranks, 32^3 per rank, every variant,
#              7- and 27-point: checked bit for bit against the single-rank reference, then timed
#   gpu_tests  ctest -L gpu on the machine
# Rank counts above G are left out; exchanges needs G >= 4.
#   scripts/bench/bench_many_gpus.sh PART OUT_DIR [options of the part's program...]
# Each part writes OUT_DIR/PART/ (machine.txt, commands.txt, each run's table and JSON) and
# OUT_DIR/PART.tar.gz, the one file a device call brings back per part.
# Environment: HALOFLAG_GPUS (G; default: the GPUs nvidia-smi lists), HALOFLAG_CUBES,
# HALOFLAG_ROUNDS (3), HALOFLAG_JACOBI_ITERATIONS (200), HALOFLAG_JACOBI_REPEATS (10),
# HALOFLAG_BUILD_DIR (build-gpu), HALOFLAG_GPU (cuda; none runs the host backend with G =
# HALOFLAG_GPUS, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
usage="usage: bench_many_gpus.sh exchanges|weak|jacobi|gpu_tests OUT_DIR [options...]"
part=${1:?$usage}
out=${2:?$usage}
shift 2
case $part in
  exchanges) wanted=(4 8) ;;
  weak) wanted=(2 4 8) ;;
  jacobi) wanted=(1 2 4 8) ;;
  gpu_tests) wanted=(1) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac

gpus=${HALOFLAG_GPUS:-$(figures_gpu_count)}
rank_counts=()
for ranks in "${wanted[@]}"; do
  if [[ $ranks -le $gpus ]]; then rank_counts+=("$ranks"); fi
done
if [[ ${#rank_counts[@]} -eq 0 ]]; then
  echo "bench_many_gpus.sh: $part needs at least ${wanted[0]} GPUs, this node has ${gpus:-0}" \
    "(HALOFLAG_GPUS sets the count)" >&2
  exit 1
fi
mkdir -p "$out/$part"
out=$(cd "$out" && pwd)
dir=$out/$part
# The environment of the largest run: one GPU per rank, oversubscribed on a small host.
figures_gpu_env "$root" bench_many_gpus.sh "${rank_counts[-1]}"
build=$HALOFLAG_BUILD_DIR
rounds=${HALOFLAG_ROUNDS:-3}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
touch "$dir/commands.txt"
run_logged() { figures_run_logged "$dir/commands.txt" "$@"; }  # run_logged LOG COMMAND...
config_of() { figures_reduced_config "$root" "$build" "$dir" "$1" "$2"; }  # config_of CUBE RANKS
# exchange_run NAME RANKS CUBE OPTIONS...: halo_bench on the reduction of CUBE to RANKS ranks,
# its table in NAME.txt and its report in NAME.json.
exchange_run() {
  local name=$1 ranks=$2 cube=$3
  shift 3
  run_logged "$dir/$name.txt" mpiexec -n "$ranks" "$build/bench/halo_bench" \
    --config "$(config_of "$cube" "$ranks")" --rounds "$rounds" --progress 0 \
    --json "$dir/$name.json" "$@"
}

case $part in
  exchanges)
    figures_build "$root" "$build" "$dir/build.log" halo_bench haloflag_gen_config
    figures_machine_info "$dir/machine.txt" "$root"
    for ranks in "${rank_counts[@]}"; do
      for cube in "${cubes[@]}"; do
        exchange_run "halo_bench_np${ranks}_${cube}" "$ranks" "$cube" --strategy all \
          --transport node,mpi "$@"
        # auto: node for the peers of a rank's own node of --node-size ranks, mpi for the rest.
        node_sizes=(2)
        [[ $ranks -eq 8 ]] && node_sizes+=(4)
        for node_size in "${node_sizes[@]}"; do
          exchange_run "halo_bench_np${ranks}_${cube}_nodes_of_${node_size}" "$ranks" "$cube" \
            --strategy all --transport auto --node-size "$node_size" "$@"
        done
      done
    done
    ;;
  weak)
    figures_build "$root" "$build" "$dir/build.log" halo_bench haloflag_gen_config
    figures_machine_info "$dir/machine.txt" "$root"
    for cube in "${cubes[@]}"; do
      for ranks in "${rank_counts[@]}"; do
        exchange_run "halo_bench_np${ranks}_${cube}" "$ranks" "$cube" \
          --strategy resident,comb_fused --transport node "$@"
      done
    done
    ;;
  jacobi)
    figures_build "$root" "$build" "$dir/build.log" haloflag_jacobi3d
    figures_machine_info "$dir/machine.txt" "$root"
    for ranks in "${rank_counts[@]}"; do
      for stencil in 7 27; do
        run_logged "$dir/jacobi_np${ranks}_${stencil}.txt" mpiexec -n "$ranks" \
          "$build/examples/jacobi3d/haloflag_jacobi3d" --variant all --stencil "$stencil" \
          --local 32 --transport node --check \
          --iterations "${HALOFLAG_JACOBI_ITERATIONS:-200}" \
          --repeats "${HALOFLAG_JACOBI_REPEATS:-10}" \
          --json "$dir/jacobi_np${ranks}_${stencil}.json" "$@"
      done
    done
    ;;
  gpu_tests)
    figures_build_tests "$root" "$build" "$dir/build.log"
    figures_machine_info "$dir/machine.txt" "$root"
    (cd "$build" && run_logged "$dir/ctest_gpu.txt" ctest -L gpu --output-on-failure -j 2 "$@") || true
    ;;
esac
tar -czf "$out/$part.tar.gz" -C "$out" "$part"
