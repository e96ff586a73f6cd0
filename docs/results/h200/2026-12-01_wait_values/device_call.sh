#!/usr/bin/env bash
# Session 73's calls on one H200, two ranks sharing it under NVIDIA MPS (a proxy of the two-GPU
# exchange: scripts/gpu/run_with_mps.sh), from the repository root on the GPU machine, .deps from
# scripts/stage_offline_deps.sh carried and .ab/before, a copy of 56a053b (`git archive 56a053b
# | tar -x -C .ab/before`), the tree whose kernels last ran on a GPU. STEPS lists the steps of a
# call (default: all four, in this order).
#   builds  the tree before (.ab/before, build-before: halo_bench and Jacobi3D) in the background
#           and this tree (build-gpu, tests configured: halo_bench, Jacobi3D and the GPU tests'
#           programs) on the other cores
#   tests   this tree's GPU tests (GPU_TESTS, a ctest regex: the strategies at 1 and 2 ranks and
#           with the node transport's pinned-host fallback, the stream-ordered exchange, the
#           resident kernels beside the program's work, the whole exchange from the kernel and
#           Jacobi3D's reference)
#   ab      halo_bench's resident over node at cubes 200 and 800 (CUBES), 1000 verified
#           exchanges, the two trees in turn (their order turned every round), ROUNDS rounds (2);
#           ab/summary.txt
#   j3d     Jacobi3D before and after at 32^3 (SIZES, cells a side per rank), 7 and 27 points,
#           conventional_overlap and resident, in turn, ROUNDS rounds; j3d/summary.txt
#   jbuilds Jacobi3D alone of both trees, side by side
#   rates   one rank's Jacobi3D on the GPU, every variant, both trees in turn at 128^3 and 256^3,
#           7 and 27 points, ROUNDS rounds: each variant's update alone against the copy rate
#           (rates/summary.txt)
#   all     this tree, every target, tests configured, into build-all
#   gpu     build-all's GPU tests (ctest -L gpu), but those that GPU_DONE (a ctest regex) names,
#           within the call's time
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
STEPS=${STEPS:-builds tests ab j3d}
this_tree_call

# j3d_name LOCAL STENCIL TREE ROUND: the name of a run of the rates step.
j3d_name() { echo "j3d${1}_${2}pt_${3}_r$4"; }

for step in $STEPS; do
  case $step in
    builds)
      build_before_in_background $(($(nproc) / 3)) halo_bench haloflag_jacobi3d
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors $(($(nproc) * 2 / 3)) halo_bench haloflag_jacobi3d \
        halo_exchange_strategies_mpi_test halo_stream_exchange_mpi_test \
        halo_resident_coexistence_mpi_test halo_embedded_whole_exchange_mpi_test \
        jacobi3d_reference_mpi_test
      wait_for_before
      echo "built: $(left) s left"
      ;;
    tests)
      gpu_tests='strategies_cuda_np|strategies_cuda_host_mapping|stream_exchange_cuda_np'
      gpu_tests+='|resident_coexistence|embedded_whole_exchange_cuda_np2'
      gpu_tests+='|jacobi3d_reference_cuda_np2'
      GPU_TESTS=${GPU_TESTS:-$gpu_tests} stencil_gpu_tests
      ;;
    ab)
      halo_bench_trees ab
      echo "ab: $(left) s left"
      ;;
    j3d)
      jacobi3d_trees j3d "${SIZES:-32}"
      echo "j3d: $(left) s left"
      ;;
    jbuilds)
      build_before_in_background $(($(nproc) / 2)) haloflag_jacobi3d
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors $(($(nproc) / 2)) haloflag_jacobi3d jacobi3d_reference_mpi_test
      wait_for_before
      echo "built: $(left) s left"
      ;;
    all)
      build_into build-all
      ;;
    gpu)
      b=$root/build-all
      in_build "$b" "$o/ctest_gpu_all.txt" timeout $(($(left) - 10)) ctest -L gpu \
        --timeout 120 --output-on-failure ${GPU_DONE:+-E "$GPU_DONE"}
      grep -E "tests passed|Failed|Not Run|Skipped|\*\*\*|Total Test" "$o/ctest_gpu_all.txt"
      echo "gpu: $(left) s left"
      ;;
    rates)
      rates_in_turn j3d_name before after
      echo "rates: $(left) s left"
      ;;
  esac
done
