#!/usr/bin/env bash
# The README's main command: the halo exchange benchmark (bench/halo_bench) on the best backend
# present, with the model's prediction beside it, every strategy over MPI and over the node
# transport (--transport mpi,auto unless the arguments name a transport).
#   scripts/run.sh [halo_bench arguments...]        e.g. --strategy stream_notify --iterations 1000
#   HALOFLAG_RANKS=4 scripts/run.sh                 ranks (default 2: the paper's 2-rank config)
# Builds halo_bench first (scripts/test.sh's configuration). Options: bench/README.md.
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
cmake --build "$build" -j "$(nproc)" --target halo_bench >/dev/null

bench=$build/bench/halo_bench
if [[ ! -x "$bench" ]]; then
  echo "run: the build did not produce $bench" >&2
  exit 1
fi
ranks=${HALOFLAG_RANKS:-2}
# More ranks than cores and running as root are refused by Open MPI unless allowed (4.x: the
# OMPI_ variables; 5.x: PRRTE's mapping policy); MPICH ignores all of them.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
# Both transports, so that the model's bound stands beside the MPI results (the shipped
# parameters have no node transport terms) and the node transport beside them.
transport=(--transport mpi,auto)
for argument in "$@"; do
  [[ $argument == --transport* ]] && transport=()
done
exec mpiexec -n "$ranks" "$bench" "${transport[@]}" "$@"
