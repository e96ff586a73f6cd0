#!/usr/bin/env bash
# The device calls behind this folder, in order (run from the repository root on the GPU
# machine, with .deps from scripts/stage_offline_deps.sh and the compared trees carried):
#   mkdir -p .ab/before .ab/prereg
#   git archive 2393dec | tar -x -C .ab/before --exclude=docs/results
#   git archive 00ef788 | tar -x -C .ab/prereg --exclude=docs/results
# STEP picks one: jacobi (call 1), halo_bench (call 2), node200 (call 3), gpu_tests.
set -euo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
out=${OUT:-/tmp/out}
build_gpu() {
  configure_cuda . build-gpu /tmp/cfg.log -DHALOFLAG_BUILD_TESTS=ON
  cmake --build build-gpu -j "$(nproc)" >/tmp/build.log 2>&1
}
case ${STEP:?set STEP to jacobi, halo_bench, node200 or gpu_tests} in
  jacobi)
    HALOFLAG_AB_ROUNDS=3 scripts/ab/ab_jacobi_trees.sh "$out/jab" prereg=.ab/prereg before=.ab/before after=.
    ;;
  halo_bench)
    build_gpu
    HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_BASELINE_BUILD=$root/.ab/before/build-ab-before \
      HALOFLAG_BUILD_DIR=$root/build-gpu HALOFLAG_ROUNDS=2 \
      scripts/ab/ab_halo_bench_trees.sh "$out/hb" --iterations 300 --trace-exchanges 0
    ;;
  node200)
    build_gpu
    HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_BASELINE_BUILD=$root/.ab/before/build-ab-before \
      HALOFLAG_BUILD_DIR=$root/build-gpu HALOFLAG_CUBES=200 HALOFLAG_ROUNDS=3 \
      HALOFLAG_AB_TRANSPORTS=node HALOFLAG_AB_NCCL=0 \
      scripts/ab/ab_halo_bench_trees.sh "$out/hb2" --iterations 300 --trace-exchanges 0
    ;;
  gpu_tests)
    build_gpu
    (cd build-gpu && ctest -L gpu --timeout 200 --output-on-failure) | tee "$out/ctest_gpu.txt"
    ;;
esac
