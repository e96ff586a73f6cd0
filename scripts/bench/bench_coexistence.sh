#!/usr/bin/env bash
# Issue 57's table on a GPU machine: scripts/bench/coexistence_actions.py on 2 ranks (one per GPU, or
# sharing one under MPS, scripts/gpu/run_with_mps.sh), with a build's Python package.
#   scripts/bench/bench_coexistence.sh OUT_DIR [BUILD_DIR] [ARGS...]       (BUILD_DIR: build-py-gpu)
# ARGS go to coexistence_actions.py (--with-never, --repeat 3, --timeout 5, ...). OUT_DIR gets
# table.md (the tables) and coexistence.json (machine, versions, command line, every rank's times).
# Environment: PYTHON (default: the interpreter BUILD_DIR was configured with), RANKS (2),
# MPIEXEC_ARGS (extra mpiexec arguments).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: scripts/bench/bench_coexistence.sh OUT_DIR [BUILD_DIR] [ARGS...]}
shift
build=$root/build-py-gpu
if [[ $# -gt 0 && $1 != -* ]]; then
  build=$1
  shift
fi
python=${PYTHON:-$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)}
[[ -d $build/python/haloflag && -n $python ]] || {
  echo "bench_coexistence: $build has no Python package; build it with" \
       "cmake --build $build --target haloflag_python (or run scripts/gpu/python_gpu_check.sh)" >&2
  exit 2
}
ranks=${RANKS:-2}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PYTHONPATH=$build/python:$build/site${PYTHONPATH:+:$PYTHONPATH}
# shellcheck disable=SC2206
mpiexec=(mpiexec --oversubscribe -n "$ranks" ${MPIEXEC_ARGS:-})
"$root/scripts/gpu/run_with_mps.sh" "$ranks" "${mpiexec[@]}" "$python" \
  "$root/scripts/bench/coexistence_actions.py" --json "$out/coexistence.json" "$@" | tee "$out/table.md"
