#!/usr/bin/env bash
# Session 52's device calls behind this folder (run from the repository root on the GPU machine,
# with .deps from scripts/stage_offline_deps.sh and the tree compared with carried in .ab/before):
# STEP picks one: check52 (call 0), s52_call1 (call 1), s52_call2 (call 2); the README says what
# each found. The steps this file grew from (final_x2, mps_a, mps_b, exp46, probe46, and before
# them jacobi, gpu_tests, halo_bench, gpu_tests_mps) run as their own records run them:
# docs/results/h200x2/2026-11-28_whole_exchange/device_call.sh.
# The tree under test builds into build-ab-after: Jacobi3D first (tests off, as
# ab_jacobi_trees.sh configures it), then the same folder with tests on for ctest.
set -euo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
ab_after_layout
call_clock 585
case ${STEP:?set STEP} in
  s52_call2)
    # Session 52, call 2 (one rank per GPU): the tree after the fused moves went back out: GPU
    # tests of what changed, then Jacobi3D's three variants at 7 and 27 points (ratios from one run).
    cards "$out/gpus_s52_call2.txt"
    build_tests
    echo "after build: $(left) s left"
    in_build "$build" "$out/ctest_gpu_s52_call2.txt" timeout $(( $(left) - 90 )) ctest -L gpu --timeout 100 \
      --output-on-failure \
      -R "jacobi|embedding|embedded_whole|strategies_cuda_np2|element_types_cuda_np2|nccl_exchange_cuda_np2" || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_s52_call2.txt" | tail -40
    echo "after tests: $(left) s left"
    for st in 7 27; do
      jacobi_variants "$build" "$out" $st 60
      grep -E "^conventional|^resident|^stream|x$|check" "$out/jacobi_s$st.txt" | head -12
    done
    ;;
  s52_call1)
    # Session 52, call 1 (one rank per GPU): Jacobi3D A/B against the session's start (33cba33),
    # then the tree's GPU tests of what changed (whole exchange over MPI, nccl's blocking
    # communicator, the fused moves, Jacobi, the embedding examples).
    cards "$out/gpus_s52_call1.txt"
    jacobi_ab_packed "${ROUNDS:-2}" 33cba33 || true
    echo "after jacobi: $(left) s left"
    build_tests
    echo "after build: $(left) s left"
    in_build "$build" "$out/ctest_gpu_s52_call1.txt" timeout $(( $(left) - 10 )) ctest -L gpu --timeout 120 \
      --output-on-failure -R "embedded|jacobi|nccl|fused|element_types_cuda_np2|embedding|self_transport" || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_s52_call1.txt" | tail -40
    ;;
  check52)
    # Session 52's first call: the tree as it landed. Ranks sharing GPU 0 under MPS for the
    # tests that failed or did not run before, then every GPU test with one rank per GPU.
    cards "$out/gpus_check52.txt"
    build_tests
    echo "built: $(left) s left"
    CUDA_VISIBLE_DEVICES=0 in_build "$build" "$out/ctest_gpu_mps_rerun.txt" timeout 200 ctest -L gpu --timeout 150 \
      --output-on-failure \
      -R "embedded_exchange_cuda_np2|element_types_cuda_transport_mpi_np4|stream_exchange_cuda_np2|whole_exchange" || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_mps_rerun.txt" | tail -30
    echo "after mps: $(left) s left"
    in_build "$build" "$out/ctest_gpu_one_rank_per_gpu.txt" timeout $(( $(left) - 10 )) ctest -L gpu --timeout 150 \
      --output-on-failure || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_one_rank_per_gpu.txt" | tail -60
    ;;
  final_x2|mps_a|mps_b|exp46|probe46|jacobi|gpu_tests|halo_bench|gpu_tests_mps)
    # Steps this file kept from the records it grew out of: run as those records run them.
    exec bash docs/results/h200x2/2026-11-28_whole_exchange/device_call.sh
    ;;
esac
