#!/usr/bin/env bash
# A/B of the flag strategies' receive order on a 2-GPU machine: halo_bench on one 2-rank config,
# every receive posted first and long receives on arrival in alternation, so that a slow phase
# of the machine weighs on both alike. With HALOFLAG_BASE_BUILD_DIR (a build of another tree),
# that tree's halo_bench runs first in each round, posted first: a before/after A/B.
#
# Usage: scripts/ab_receive_order.sh OUT_DIR
# Environment: HALOFLAG_CUBE (200), HALOFLAG_AB_ROUNDS (2), HALOFLAG_BUILD_DIR (build-gpu),
#   HALOFLAG_BASE_BUILD_DIR (none), HALOFLAG_AB_ITERATIONS (300),
#   HALOFLAG_AB_STRATEGIES (comb_fused,stream_notify,stacked_notify,resident), and Open MPI's
#   own variables (OMPI_MCA_btl_vader_single_copy_mechanism=cma or none: the transport).
# Writes OUT_DIR/<name>.txt, .json and trace_<name>.json.gz per run, machine.txt, commands.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/figures_common.sh"
out=${1:?usage: ab_receive_order.sh OUT_DIR}
cube=${HALOFLAG_CUBE:-200}
rounds=${HALOFLAG_AB_ROUNDS:-2}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
base=${HALOFLAG_BASE_BUILD_DIR:-}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
figures_build "$root" "$build" "$out/build.log" halo_bench
figures_machine_info "$out/machine.txt" "$root"
: >"$out/commands.txt"
transport=${OMPI_MCA_btl_vader_single_copy_mechanism:-default}
# The transport as commands.txt shows it: nothing when the environment leaves it to Open MPI.
env_shown=
if [[ -n ${OMPI_MCA_btl_vader_single_copy_mechanism:-} ]]; then
  env_shown="OMPI_MCA_btl_vader_single_copy_mechanism=$transport "
fi
run() {  # name halo_bench [options...]
  local name=$1 bench=$2
  shift 2
  local command=(mpiexec -n 2 "$bench" --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg"
    --strategy "${HALOFLAG_AB_STRATEGIES:-comb_fused,stream_notify,stacked_notify,resident}"
    --iterations "${HALOFLAG_AB_ITERATIONS:-300}" --rounds 6 --progress 0
    --json "$out/$name.json" --trace "$out/trace_$name.json" "$@")
  echo "\$ $env_shown${command[*]}" >>"$out/commands.txt"
  "${command[@]}" >"$out/$name.txt" 2>&1 || { tail -20 "$out/$name.txt" >&2; exit 1; }
  gzip -f "$out/trace_$name.json"
  echo "== $name"
  grep -E '^[a-z_]+ +[0-9.]+ .* [0-9.]+x ' "$out/$name.txt" || true
}
for ((round = 1; round <= rounds; ++round)); do
  prefix=${transport}_${cube}
  [[ -n $base ]] && run "${prefix}_base_posted-first_$round" "$base/bench/halo_bench"
  run "${prefix}_posted-first_$round" "$build/bench/halo_bench" --long-receives posted-first
  run "${prefix}_on-arrival_$round" "$build/bench/halo_bench" --long-receives on-arrival
done
