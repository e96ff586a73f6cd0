#!/usr/bin/env bash
# The README's test command: set up, configure, build and run every test.
#   scripts/test.sh [BUILD_DIR]        default build/
# The CUDA backend is built when nvcc is found; GPU tests skip (with a reason) without a GPU.
# Environment: HALOFLAG_GPU=auto|cuda|hip|none (default auto), HALOFLAG_CMAKE_ARGS (extra
# configure arguments), HALOFLAG_CTEST_ARGS (extra ctest arguments), HALOFLAG_JOBS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
jobs=${HALOFLAG_JOBS:-$(nproc)}

"$root/scripts/setup.sh" --all
# nvcc lives outside PATH on some machines.
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
  -DHALOFLAG_BUILD_TESTS=ON ${HALOFLAG_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
# shellcheck disable=SC2086
(cd "$build" && ctest --output-on-failure -j "$jobs" ${HALOFLAG_CTEST_ARGS:-})
