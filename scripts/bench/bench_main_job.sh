#!/usr/bin/env bash
# The README's main job (scripts/run.sh) as a published result: the table it prints, its JSON
# report and the machine it ran on, under OUT_DIR.
#   scripts/bench/bench_main_job.sh OUT_DIR [run.sh arguments...]
# On a machine without a package registry, set HALOFLAG_SETUP_SKIP=1 and point
# HALOFLAG_CMAKE_ARGS at the staged dependencies (scripts/stage_offline_deps.sh), as
# scripts/gpu/gpu_check.sh does. HALOFLAG_BUILD_DIR and HALOFLAG_RANKS pass through to run.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_main_job.sh OUT_DIR [run.sh arguments...]}
shift
out=$(mkdir -p "$out" && cd "$out" && pwd)
figures_machine_info "$out/machine.txt" "$root"
echo "scripts/run.sh --json $out/main_job.json $*" >"$out/commands.txt"
"$root/scripts/run.sh" --json "$out/main_job.json" "$@" 2>&1 | tee "$out/main_job.txt"
