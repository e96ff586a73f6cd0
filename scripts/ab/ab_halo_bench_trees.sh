#!/usr/bin/env bash
# No speed lost between two trees, on two GPUs of one host, one rank per GPU (nvidia-h100-x2,
# nvidia-h200-x2): halo_bench on the 2-rank configs of HALOFLAG_CUBES (200 800), every strategy
# over node and over mpi, and nccl, in two builds alternated within each round on one machine:
#   before   HALOFLAG_BASELINE_SRC, a source folder (e.g. `git archive <commit> | tar -x -C DIR`);
#   after    this tree.
#   scripts/ab/ab_halo_bench_trees.sh OUT_DIR [halo_bench options...]
# Writes OUT_DIR/ab_halo_bench/ (machine.txt, commands.txt, each run's table and JSON, and
# summary.txt from ab_halo_bench_summary.py: per cube, transport and strategy each build's
# median of the rounds' medians, after/before, and the before build's own spread between rounds)
# and OUT_DIR/ab_halo_bench.tar.gz.
# Environment: HALOFLAG_CUBES, HALOFLAG_ROUNDS (3), HALOFLAG_AB_STRATEGIES (every flag and bulk
# strategy), HALOFLAG_AB_TRANSPORTS (node,mpi), HALOFLAG_AB_NCCL (1: also nccl), HALOFLAG_BUILD_DIR (build-gpu),
# HALOFLAG_BASELINE_SRC (required), HALOFLAG_BASELINE_BUILD (build-baseline), HALOFLAG_PREBUILT=1
# to run the binaries already built, HALOFLAG_GPU (cuda; none runs the host backend, to check
# this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: ab_halo_bench_trees.sh OUT_DIR [halo_bench options...]}
shift
mkdir -p "$out/ab_halo_bench"
out=$(cd "$out" && pwd)
dir=$out/ab_halo_bench
figures_two_gpu_env "$root" ab_halo_bench_trees.sh
build=$HALOFLAG_BUILD_DIR
baseline_src=${HALOFLAG_BASELINE_SRC:?set HALOFLAG_BASELINE_SRC to the source folder of the tree to compare with}
baseline_src=$(cd "$baseline_src" && pwd)
baseline_build=${HALOFLAG_BASELINE_BUILD:-$root/build-baseline}
rounds=${HALOFLAG_ROUNDS:-3}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
touch "$dir/commands.txt"

if [[ ${HALOFLAG_PREBUILT:-0} != 1 ]]; then
  figures_build "$root" "$build" "$dir/build.log" halo_bench
  figures_build_baseline "$root" "$baseline_src" "$baseline_build" "$dir/baseline_build.log" halo_bench
fi
figures_machine_info "$dir/machine.txt" "$root"
figures_mpi_copy_info "$dir/machine.txt"

backend=()
[[ $HALOFLAG_GPU == none ]] && backend=(--backend host)
flag_and_bulk=${HALOFLAG_AB_STRATEGIES:-comb_fused,comb_graph,stream_base,stream_notify,stacked_notify,resident}
transports=${HALOFLAG_AB_TRANSPORTS:-node,mpi}
run() {  # run NAME BINARY CUBE ROUND [extra options...]
  local name=$1 binary=$2 cube=$3 round=$4
  shift 4
  local stem=$dir/${name}_${cube}_round${round}
  figures_run_logged "$dir/commands.txt" "$stem.txt" \
    mpiexec -n 2 "$binary" "${backend[@]}" \
    --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
    --strategy "$flag_and_bulk" --transport "$transports" --tuning fixed --rounds 1 \
    --progress 0 --json "$stem.json" "$@"
  # nccl where the build has it (halo_bench says why not otherwise, and the run goes on).
  if [[ $HALOFLAG_GPU != none && ${HALOFLAG_AB_NCCL:-1} == 1 ]]; then
    figures_run_logged "$dir/commands.txt" "${stem}_nccl.txt" \
      mpiexec -n 2 "$binary" --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
      --strategy nccl --tuning fixed --rounds 1 --progress 0 --json "${stem}_nccl.json" "$@" ||
      echo "nccl run of $name failed: ${stem}_nccl.txt"
  fi
}
for round in $(seq 1 "$rounds"); do
  for cube in "${cubes[@]}"; do
    # The order turns each round, so no build always runs first on a warm or a cold machine.
    order=(before after)
    ((round % 2 == 0)) && order=(after before)
    for name in "${order[@]}"; do
      case $name in
        before) run before "$baseline_build/bench/halo_bench" "$cube" "$round" "$@" ;;
        after) run after "$build/bench/halo_bench" "$cube" "$round" "$@" ;;
      esac
    done
  done
done
python3 "$root/scripts/ab/ab_halo_bench_summary.py" "$dir" >"$dir/summary.txt"
cat "$dir/summary.txt"
tar -czf "$out/ab_halo_bench.tar.gz" -C "$out" ab_halo_bench
