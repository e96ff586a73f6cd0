#!/usr/bin/env bash
# The cache-state probe on a GPU machine (bench/cache_state_probe,
# docs/results/exchange_journal.md): how the CPU cache state of pinned host lines changes the
# GPU's zero-copy reads and writes of them.
#   scripts/bench/probe_cache_state.sh [OUT_DIR]
# OUT_DIR defaults to docs/results/<machine>/<UTC date>_cache_state; it gets machine.txt,
# commands.txt, cache_state.md (the table) and build.log.
# Environment: HALOFLAG_RESULTS_TAR (also pack OUT_DIR into this .tar.gz), HALOFLAG_RESULTS_MACHINE,
# HALOFLAG_BUILD_DIR (default build-gpu; configured for CUDA when it has no cache yet).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/figures/figures_common.sh
source "$root/scripts/figures/figures_common.sh"
if [[ $# -gt 0 ]]; then
  out=$1
else
  out=$root/docs/results/$(figures_machine_name)/$(date -u +%Y-%m-%d)_cache_state
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
export PATH=/usr/local/cuda/bin:$PATH

figures_step 1 3 "machine description: $out/machine.txt"
figures_machine_info "$out/machine.txt" "$root"

figures_step 2 3 "build cache_state_probe in $build"
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log" >&2; exit 1; }
fi
cmake --build "$build" --target cache_state_probe >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log" >&2; exit 1; }

figures_step 3 3 "probe: $out/cache_state.md"
command=(env CUDA_MODULE_LOADING=EAGER "$build/bench/cache_state_probe/cache_state_probe")
echo "\$ ${command[*]}" >"$out/commands.txt"
"${command[@]}" | tee "$out/cache_state.md"
figures_tar "$out"
