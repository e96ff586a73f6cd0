#!/usr/bin/env bash
# The node transport's pieces on two GPUs of one host, one rank per GPU (nvidia-h100-x2,
# nvidia-h200-x2), in parts of one device call each:
#   exchanges  every strategy over node and mpi on the 2-rank configs of HALOFLAG_CUBES
#              (200 800), in alternating rounds, with the default node grid
#   pieces     resident and stream_notify over node at cube 200 and 800 for each piece size
#              and block size of HALOFLAG_PIECES and HALOFLAG_NODE_THREADS
#   jacobi     examples/jacobi3d over node, every variant, 7- and 27-point, 32^3 per rank:
#              checked bit for bit against the single-rank reference, then timed
#   gpu_tests  ctest -L gpu on the two GPUs
#   one_gpu    the proxy: CUDA_VISIBLE_DEVICES=0, so both ranks share GPU 0 under NVIDIA MPS
#              (scripts/gpu/run_with_mps.sh): ctest -L gpu, then halo_bench over node at the cubes of
#              HALOFLAG_CUBES (200)
#   scripts/bench/bench_node_pieces.sh PART OUT_DIR [halo_bench options...]
# Each part writes OUT_DIR/PART/ (machine.txt, commands.txt, each run's table and JSON) and
# OUT_DIR/PART.tar.gz, the one file a device call brings back per part.
# Environment: HALOFLAG_CUBES, HALOFLAG_ROUNDS (3), HALOFLAG_BUILD_DIR (build-gpu),
# HALOFLAG_GPU (cuda; none runs the host backend, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
usage="usage: bench_node_pieces.sh exchanges|pieces|jacobi|gpu_tests|one_gpu OUT_DIR [options...]"
part=${1:?$usage}
out=${2:?$usage}
shift 2
case $part in exchanges | pieces | jacobi | gpu_tests | one_gpu) ;; *) echo "$usage" >&2; exit 2 ;; esac
mkdir -p "$out/$part"
out=$(cd "$out" && pwd)
dir=$out/$part
figures_two_gpu_env "$root" bench_node_pieces.sh
build=$HALOFLAG_BUILD_DIR
rounds=${HALOFLAG_ROUNDS:-3}
default_cubes="200 800"
[[ $part == one_gpu ]] && default_cubes=200
read -r -a cubes <<<"${HALOFLAG_CUBES:-$default_cubes}"
touch "$dir/commands.txt"
run_logged() { figures_run_logged "$dir/commands.txt" "$@"; }  # run_logged LOG COMMAND...
config_of() { figures_reduced_config "$root" "$build" "$dir" "$1" 2; }  # config_of CUBE

case $part in
  exchanges)
    figures_build "$root" "$build" "$dir/build.log" halo_bench haloflag_gen_config
    figures_machine_info "$dir/machine.txt" "$root"
    for cube in "${cubes[@]}"; do
      run_logged "$dir/halo_bench_${cube}.txt" mpiexec -n 2 "$build/bench/halo_bench" \
        --config "$(config_of "$cube")" --transport node,mpi --rounds "$rounds" --progress 0 \
        --json "$dir/halo_bench_${cube}.json" "$@"
    done
    ;;
  pieces)
    figures_build "$root" "$build" "$dir/build.log" halo_bench haloflag_gen_config
    figures_machine_info "$dir/machine.txt" "$root"
    for cube in "${cubes[@]}"; do
      for piece in ${HALOFLAG_PIECES:-2048 4096 8192}; do
        for threads in ${HALOFLAG_NODE_THREADS:-256 512}; do
          run_logged "$dir/halo_bench_${cube}_${piece}_${threads}.txt" mpiexec -n 2 \
            "$build/bench/halo_bench" --config "$(config_of "$cube")" --transport node \
            --strategy comb_fused,stream_notify,resident --rounds "$rounds" --progress 0 \
            --trace-exchanges 0 --piece-bytes "$piece" --node-threads "$threads" \
            --json "$dir/halo_bench_${cube}_${piece}_${threads}.json" "$@"
        done
      done
    done
    ;;
  jacobi)
    figures_build "$root" "$build" "$dir/build.log" haloflag_jacobi3d
    figures_machine_info "$dir/machine.txt" "$root"
    for stencil in 7 27; do
      run_logged "$dir/jacobi_${stencil}.txt" mpiexec -n 2 "$build/examples/jacobi3d/haloflag_jacobi3d" \
        --stencil "$stencil" --local 32 --transport node --check \
        --iterations "${HALOFLAG_JACOBI_ITERATIONS:-200}" --repeats "${HALOFLAG_JACOBI_REPEATS:-10}" \
        --json "$dir/jacobi_${stencil}.json" "$@"
    done
    ;;
  gpu_tests | one_gpu)
    figures_build_tests "$root" "$build" "$dir/build.log"
    figures_machine_info "$dir/machine.txt" "$root"
    if [[ $part == gpu_tests ]]; then
      (cd "$build" && run_logged "$dir/ctest_gpu.txt" ctest -L gpu --output-on-failure -j 2 "$@") || true
    else
      export CUDA_VISIBLE_DEVICES=0
      (cd "$build" && run_logged "$dir/ctest_gpu.txt" ctest -L gpu --output-on-failure) || true
      for cube in "${cubes[@]}"; do
        run_logged "$dir/halo_bench_${cube}.txt" "$root/scripts/gpu/run_with_mps.sh" 2 \
          mpiexec -n 2 "$build/bench/halo_bench" --config "$(config_of "$cube")" \
          --transport node --rounds "$rounds" --progress 0 --trace-exchanges 0 \
          --json "$dir/halo_bench_${cube}.json" || true
      done
    fi
    ;;
esac
tar -czf "$out/$part.tar.gz" -C "$out" "$part"
