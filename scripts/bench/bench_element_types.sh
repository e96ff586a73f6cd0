#!/usr/bin/env bash
# Element types on two GPUs of one host, one rank per GPU (nvidia-h100-x2, nvidia-h200-x2):
# halo_bench on the 2-rank configs of HALOFLAG_CUBES (200 800), comb_fused, stream_notify and
# resident over each transport of HALOFLAG_TRANSPORTS (node mpi), in three builds alternated
# round by round on the same machine:
#   double   this tree, 8-byte elements (the configs as shipped);
#   float    this tree, --element-bytes 4: the same cells, half the bytes;
#   before   the tree before element types came (HALOFLAG_BASELINE_SRC, a source folder, e.g.
#            `git archive 6693bf4 | tar -x -C DIR`), 8-byte elements: "no speed lost" compares
#            it with double.
#   scripts/bench/bench_element_types.sh OUT_DIR [halo_bench options...]
# Writes OUT_DIR/element_types/ (machine.txt, commands.txt, each run's table and JSON,
# summary.txt: per cube, transport and strategy the median of the rounds' medians for each
# build) and OUT_DIR/element_types.tar.gz.
# Environment: HALOFLAG_CUBES, HALOFLAG_TRANSPORTS, HALOFLAG_ROUNDS (3), HALOFLAG_BUILD_DIR
# (build-gpu), HALOFLAG_BASELINE_SRC (required), HALOFLAG_BASELINE_BUILD (build-baseline),
# HALOFLAG_PREBUILT=1 to run the binaries already built, HALOFLAG_GPU (cuda; none runs the host
# backend, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_element_types.sh OUT_DIR [halo_bench options...]}
shift
mkdir -p "$out/element_types"
out=$(cd "$out" && pwd)
dir=$out/element_types
figures_two_gpu_env "$root" bench_element_types.sh
build=$HALOFLAG_BUILD_DIR
baseline_src=${HALOFLAG_BASELINE_SRC:?set HALOFLAG_BASELINE_SRC to the source folder of the tree before element types}
baseline_src=$(cd "$baseline_src" && pwd)
baseline_build=${HALOFLAG_BASELINE_BUILD:-$root/build-baseline}
rounds=${HALOFLAG_ROUNDS:-3}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
transports=${HALOFLAG_TRANSPORTS:-node,mpi}
transports=${transports// /,}
touch "$dir/commands.txt"

if [[ ${HALOFLAG_PREBUILT:-0} != 1 ]]; then
  figures_build "$root" "$build" "$dir/build.log" halo_bench
  figures_build_baseline "$root" "$baseline_src" "$baseline_build" "$dir/baseline_build.log" halo_bench
fi
figures_machine_info "$dir/machine.txt" "$root"
figures_mpi_copy_info "$dir/machine.txt"

backend=()
[[ $HALOFLAG_GPU == none ]] && backend=(--backend host)
run() {  # run NAME BINARY CUBE ROUND [extra options...]
  local name=$1 binary=$2 cube=$3 round=$4
  shift 4
  local stem=$dir/${name}_${cube}_round${round}
  figures_run_logged "$dir/commands.txt" "$stem.txt" \
    mpiexec -n 2 "$binary" "${backend[@]}" \
    --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
    --strategy comb_fused,stream_notify,resident --transport "$transports" --rounds 1 \
    --progress 0 --json "$stem.json" "$@"
}
for round in $(seq 1 "$rounds"); do
  for cube in "${cubes[@]}"; do
    # The order turns each round, so no build always runs first on a warm or a cold machine.
    case $((round % 3)) in
      1) order=(before double float) ;;
      2) order=(double float before) ;;
      0) order=(float before double) ;;
    esac
    for name in "${order[@]}"; do
      case $name in
        before) run before "$baseline_build/bench/halo_bench" "$cube" "$round" "$@" ;;
        double) run double "$build/bench/halo_bench" "$cube" "$round" "$@" ;;
        float) run float "$build/bench/halo_bench" "$cube" "$round" --element-bytes 4 "$@" ;;
      esac
    done
  done
done
python3 "$root/scripts/tables/element_types_summary.py" "$dir" >"$dir/summary.txt"
cat "$dir/summary.txt"
tar -czf "$out/element_types.tar.gz" -C "$out" element_types
