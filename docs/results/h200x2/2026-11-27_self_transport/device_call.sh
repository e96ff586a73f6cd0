#!/usr/bin/env bash
# The device calls behind docs/results/<cards>/2026-11-27_self_transport, in order (run from the
# repository root on the GPU machine, with .deps from scripts/stage_offline_deps.sh and the tree
# compared with carried in .ab/before):
#   mkdir -p .ab/before && git archive 891c7c2 | tar -x -C .ab/before --exclude=docs/results
# STEP picks one: jacobi (call 1, tree 57eb817), gpu_tests (call 2 on 57eb817, call 3 on
# 900b63c: one rank per GPU), halo_bench (call 4, 900b63c), gpu_tests_mps_one_gpu (call 5,
# 900b63c: GPU 0 alone visible, so the tests' scripts/gpu/run_with_mps.sh starts MPS for 2 ranks;
# the subset that the session's device time left room for), gpu_tests_mps (a whole run on a
# one-GPU machine, not made this session).
# The tree under test builds into build-ab-after: Jacobi3D first (tests off, as
# ab_jacobi_trees.sh configures it), then the same folder with tests on for ctest and halo_bench.
set -euo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
ab_after_layout
case ${STEP:?set STEP} in
  jacobi)
    cards "$out/gpus_jacobi.txt"
    jacobi_ab_packed 3 891c7c2
    ;;
  gpu_tests)
    cards "$out/gpus_tests.txt"
    build_tests
    run_gpu_tests ctest_gpu_one_rank_per_gpu
    ;;
  halo_bench)
    cards "$out/gpus_halo_bench.txt"
    HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_BASELINE_BUILD=$root/.ab/before/build-ab-before \
      HALOFLAG_BUILD_DIR=$build HALOFLAG_ROUNDS=2 \
      scripts/ab/ab_halo_bench_trees.sh "$out/hb" --iterations 300 --trace-exchanges 0 >"$out/halo_bench_log.txt" 2>&1 || tail -30 "$out/halo_bench_log.txt"
    cp "$out/hb/ab_halo_bench.tar.gz" "$out/halo_bench_ab.tar.gz" 2>/dev/null || true
    cat "$out/hb/ab_halo_bench/summary.txt" 2>/dev/null || true
    cp "$out/hb/ab_halo_bench/summary.txt" "$out/halo_bench_ab_summary.txt" 2>/dev/null || true
    rm -rf "$out/hb"
    ;;
  gpu_tests_mps_one_gpu)
    export CUDA_VISIBLE_DEVICES=0
    nvidia-smi -L >"$out/gpus_mps.txt"
    in_build "$build" "$out/ctest_gpu_mps_one_gpu.txt" timeout 190 ctest -L gpu --timeout 120 --output-on-failure \
      -R "self_transport|embedded|jacobi3d|strategies_cuda_np2|element_types_cuda_np2|readme|embedding_example|stream_exchange_cuda_np2" || true
    ;;
  gpu_tests_mps)
    cards "$out/gpus_tests_mps.txt"
    build_tests
    run_gpu_tests ctest_gpu_mps
    ;;
esac
