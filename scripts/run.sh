#!/usr/bin/env bash
# The README's main command: the halo exchange benchmark on the best backend present, with the
# model's prediction beside it.
#   scripts/run.sh [halo_bench arguments...]
# Builds first (scripts/test.sh's configuration, without running the tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
  ${HALOFLAG_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

bench=$build/bench/halo_bench
if [[ ! -x "$bench" ]]; then
  echo "run: $bench is not part of this version yet: the exchange engine and halo_bench" >&2
  echo "     arrive with the engine milestone (see README, 'Status'). Nothing was measured." >&2
  exit 1
fi
ranks=${HALOFLAG_RANKS:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
exec mpiexec -n "$ranks" "$bench" "$@"
