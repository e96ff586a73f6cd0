#!/usr/bin/env bash
# On a GPU machine without internet (after scripts/stage_offline_deps.sh here, carrying .deps):
# builds the CUDA backend, runs the whole test suite, and keeps the logs.
#   scripts/gpu/gpu_check.sh [OUT_DIR]      logs to OUT_DIR (default build-gpu/logs)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-gpu/logs}
mkdir -p "$out"
export HALOFLAG_SETUP_SKIP=1
export HALOFLAG_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=$root/.deps/root/usr ${HALOFLAG_CMAKE_ARGS:-}"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  nvcc --version | tail -2 || true
  mpirun --version | head -1 || true
  cmake --version | head -1
} | tee "$out/machine.txt"
set -o pipefail
"$root/scripts/test.sh" "$root/build-gpu" 2>&1 | tee "$out/test.log"
# The round-trip figure the ping-pong test prints (ctest keeps test output to itself).
"$root/build-gpu/tests/notify/notify_gpu_pingpong_test" --gtest_filter='*PingPong*' | tee "$out/pingpong.log"
