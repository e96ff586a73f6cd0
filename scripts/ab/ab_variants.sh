#!/usr/bin/env bash
# A/B of halo_bench option sets ("variants") on one exchange: every variant once per round, in
# the same order each round, so that a slow phase of the machine weighs on all alike; each run
# gives comb_fused's median / each strategy's from the same run. With HALOFLAG_BASE_BUILD_DIR (a
# build of another tree), that tree's halo_bench runs first in each round: a before/after A/B.
#
# Usage: scripts/ab/ab_variants.sh OUT_DIR
# Environment:
#   HALOFLAG_AB_VARIANTS    one variant a line, "name: halo_bench options"; default: the two
#                           receive orders (posted-first, on-arrival)
#   HALOFLAG_AB_RANKS (2)   ranks; HALOFLAG_CUBE (200) picks comb_<cube>_np2_reduced.cfg
#   HALOFLAG_AB_GEOMETRY    halo_bench geometry options instead of that config, e.g.
#                           "--size 50 --divide 1,1,1 --periodic 1,1,1" with 1 rank: the cube-200
#                           message set of the 2-rank config, exchanged by one rank with itself
#   HALOFLAG_AB_MPS=1       run under NVIDIA MPS (started here, stopped at the end): ranks that
#                           share one GPU then run their kernels side by side instead of taking
#                           turns. Each rank's grids take its share of the GPU (the Exchange
#                           counts the ranks bound to it).
#   HALOFLAG_AB_ROUNDS (2), HALOFLAG_AB_ITERATIONS (300), HALOFLAG_AB_STRATEGIES
#   (comb_fused,stream_notify,stacked_notify,resident), HALOFLAG_BUILD_DIR (build-gpu),
#   HALOFLAG_BASE_BUILD_DIR (none), and Open MPI's own variables
#   (OMPI_MCA_btl_vader_single_copy_mechanism=cma or none: the transport).
# Writes OUT_DIR/<variant>_<round>.txt, .json and trace_<variant>_<round>.json.gz, machine.txt,
# commands.txt, and summary.txt (every run's medians and ratios).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: ab_variants.sh OUT_DIR}
cube=${HALOFLAG_CUBE:-200}
ranks=${HALOFLAG_AB_RANKS:-2}
rounds=${HALOFLAG_AB_ROUNDS:-2}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
base=${HALOFLAG_BASE_BUILD_DIR:-}
variants=${HALOFLAG_AB_VARIANTS:-"posted-first: --long-receives posted-first
on-arrival: --long-receives on-arrival"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
figures_build "$root" "$build" "$out/build.log" halo_bench
figures_machine_info "$out/machine.txt" "$root"
: >"$out/commands.txt"
: >"$out/summary.txt"
# The exchange: the geometry given, or the shipped 2-rank config of the cube.
read -r -a exchange <<<"${HALOFLAG_AB_GEOMETRY:---config $root/comb_configs/comb_${cube}_np2_reduced.cfg}"
env_shown=$(env | grep -E '^OMPI_MCA_' | sort | tr '\n' ' ' || true)
if [[ ${HALOFLAG_AB_MPS:-0} == 1 ]]; then
  export CUDA_MPS_PIPE_DIRECTORY=${CUDA_MPS_PIPE_DIRECTORY:-/tmp/haloflag_mps_pipe}
  export CUDA_MPS_LOG_DIRECTORY=${CUDA_MPS_LOG_DIRECTORY:-/tmp/haloflag_mps_log}
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d
  trap 'echo quit | nvidia-cuda-mps-control || true' EXIT
  echo "# under NVIDIA MPS (nvidia-cuda-mps-control -d)" >>"$out/commands.txt"
fi
run() {  # name halo_bench [options...]
  local name=$1 bench=$2
  shift 2
  local command=(mpiexec -n "$ranks" "$bench" "${exchange[@]}"
    --strategy "${HALOFLAG_AB_STRATEGIES:-comb_fused,stream_notify,stacked_notify,resident}"
    --iterations "${HALOFLAG_AB_ITERATIONS:-300}" --rounds 6 --progress 0
    --json "$out/$name.json" --trace "$out/trace_$name.json" "$@")
  echo "\$ $env_shown${command[*]}" >>"$out/commands.txt"
  # mpiexec reads standard input: keep it off the variant list.
  "${command[@]}" >"$out/$name.txt" 2>&1 </dev/null || { tail -20 "$out/$name.txt" >&2; exit 1; }
  gzip -f "$out/trace_$name.json"
  {
    echo "== $name"
    grep -E '^[a-z_]+ +[0-9.]+ .* [0-9.]+x ' "$out/$name.txt" || true
  } | tee -a "$out/summary.txt"
}
for ((round = 1; round <= rounds; ++round)); do
  [[ -n $base ]] && run "base_$round" "$base/bench/halo_bench"
  while IFS= read -r line; do
    [[ -z ${line// /} ]] && continue
    read -r -a options <<<"${line#*:}"
    run "${line%%:*}_$round" "$build/bench/halo_bench" "${options[@]}"
  done <<<"$variants"
done
