#!/usr/bin/env bash
# The two-GPU headline, the table the top-level README's results open with, in one device call on
# a machine with two GPUs (nvidia-h200-x2, nvidia-h100-x2), one rank per GPU:
#   1. halo_bench on the shipped 2-rank configs of cubes 200 and 800: every strategy over node and
#      over mpi, and nccl, in rotation within one run per cube (--strategy all --transport
#      node,mpi, as scripts/bench/bench_nccl.sh's exchanges part), slowest-rank medians;
#   2. haloflag_calibrate_node --peer-gpu: copies between the two GPUs in both directions at once,
#      the rate of the link and each cube's halo bytes per direction at exactly that size;
#   3. scripts/tables/headline_table.py on both: OUT_DIR/headline.md.
#   scripts/bench/bench_headline.sh OUT_DIR [halo_bench options...]
# OUT_DIR ends up with three files, so that a device call brings back few: headline.md (the
# table), machine.txt (GPUs, driver, CUDA, MPI, NCCL, commit, this command line) and
# headline.tar.gz (both, with the raw JSON, each run's table, the commands and the build log);
# `scripts/tables/headline_table.py OUT_DIR/headline.tar.gz` regenerates the table from it. The working
# folder OUT_DIR/headline/ is removed once packed.
# Builds halo_bench and haloflag_calibrate_node alone, with NCCL required, in HALOFLAG_BUILD_DIR
# (build-gpu; an existing build is reused, only reconfigured to require NCCL); carry .deps from
# scripts/stage_offline_deps.sh to an offline machine. Sets NCCL_NVLS_ENABLE=0 and, unless
# already set, OMPI_MCA_btl_vader_single_copy_mechanism=none (the lent machines' setting).
# Environment: HALOFLAG_CUBES (200 800), HALOFLAG_ROUNDS (3), HALOFLAG_ITERATIONS (300 timed
# exchanges per row), HALOFLAG_VERIFY (2 verified exchanges before each round's timing, and one
# after: cube 800's fields are checked on the CPU, which takes most of the run),
# HALOFLAG_GPU (cuda; none runs the host backend without the peer copies, to check this script
# on a machine without GPUs).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: bench_headline.sh OUT_DIR [halo_bench options...]"
case ${1:-} in
  -h | --help) echo "$usage"; exit 0 ;;
  "") echo "bench_headline.sh: no OUT_DIR; $usage" >&2; exit 2 ;;
  -*) echo "bench_headline.sh: OUT_DIR comes first, not the option '$1'; $usage" >&2; exit 2 ;;
esac
command_line="scripts/bench/bench_headline.sh $*"
out=$1
shift
source "$root/scripts/figures/figures_common.sh"
figures_two_gpu_env "$root" bench_headline.sh
export NCCL_NVLS_ENABLE=0
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
build=$HALOFLAG_BUILD_DIR
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
mkdir -p "$out/headline"
out=$(cd "$out" && pwd)
work=$out/headline
steps=$((${#cubes[@]} + 3))
started=$SECONDS
step=0
next_step() { step=$((step + 1)); figures_step "$step" "$steps" "$1 (${SECONDS}s)"; }
# On failure the working folder is still packed (headline_failed.tar.gz) and the newest log's end
# shown: a device call then brings back why, in one file.
on_exit() {
  local status=$?
  [[ $status -eq 0 || ! -d $work ]] && return
  local log
  log=$(ls -t "$work"/*.txt "$work"/*.log 2>/dev/null | head -1 || true)
  [[ -n $log ]] && { echo "== the end of $log" >&2; tail -30 "$log" >&2; }
  tar -czf "$out/headline_failed.tar.gz" -C "$out" headline && rm -rf "$work"
  echo "bench_headline.sh: failed at step $step of $steps (exit $status); what it had is in" \
    "$out/headline_failed.tar.gz" >&2
}
trap on_exit EXIT

next_step "configure and build halo_bench, haloflag_calibrate_node in $build"
# NCCL required on a GPU: a cache without it would leave nccl out of the table without a word.
nccl=on
targets=(--target halo_bench --target haloflag_calibrate_node)
if [[ $HALOFLAG_GPU == none ]]; then
  nccl=auto
  targets=(--target halo_bench)
fi
configure=("-DHALOFLAG_NCCL=$nccl")
[[ -f $build/CMakeCache.txt ]] || configure+=(-DCMAKE_BUILD_TYPE=Release
  -DHALOFLAG_GPU="$HALOFLAG_GPU" -DHALOFLAG_BUILD_TESTS=OFF -DHALOFLAG_PYTHON=OFF
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr")
{ cmake -S "$root" -B "$build" "${configure[@]}" &&
  cmake --build "$build" -j "$(nproc)" "${targets[@]}"; } >"$work/build.log" 2>&1
grep "nccl strategy" "$work/build.log" >"$work/nccl_build.txt" || true

figures_machine_info "$work/machine.txt" "$root"
{
  echo "## command line"
  echo "$command_line"
  echo "## NCCL (configure)"
  cat "$work/nccl_build.txt"
  echo "## NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
  echo "## nvidia-smi topo -p2p rw"
  nvidia-smi topo -p2p rw 2>&1 || echo "(not available)"
} >>"$work/machine.txt"
touch "$work/commands.txt"

halo_bytes=()
for cube in "${cubes[@]}"; do
  next_step "halo_bench, cube $cube: every strategy over node and mpi, and nccl"
  config=$(figures_reduced_config "$root" "$build" "$work" "$cube" 2)
  figures_run_logged "$work/commands.txt" "$work/halo_bench_$cube.txt" mpiexec -n 2 \
    "$build/bench/halo_bench" --config "$config" --strategy all --transport node,mpi \
    --rounds "${HALOFLAG_ROUNDS:-3}" --iterations "${HALOFLAG_ITERATIONS:-300}" \
    --verify "${HALOFLAG_VERIFY:-2}" --progress 0 --json "$work/halo_bench_$cube.json" "$@" \
    >/dev/null
  grep -E "^(strategy |comb_|stream_|stacked_|resident|nccl)" "$work/halo_bench_$cube.txt" || true
  halo_bytes+=("$(python3 -c 'import json, sys
print(max(json.load(open(sys.argv[1]))["workload"]["messages"]["send_bytes_per_rank"]))' \
    "$work/halo_bench_$cube.json")")
done

next_step "copies between the GPUs, both directions at once"
if [[ $HALOFLAG_GPU == none ]]; then
  echo "HALOFLAG_GPU=none: no peer copies (the host backend has no GPUs)" |
    tee "$work/peer_copy.txt"
else
  sizes=$(IFS=,; echo "${halo_bytes[*]}")
  figures_run_logged "$work/commands.txt" "$work/peer_copy.txt" \
    "$build/bench/node_calibration/haloflag_calibrate_node" --gpu 0 --quick \
    -o "$work/node_calibration.json" --peer-gpu 1 --peer-bytes "$sizes" \
    --peer-out "$work/peer_copy.json" >/dev/null
  sed -n '/^== peer/,$p' "$work/peer_copy.txt"
fi

next_step "the table"
figures_run_logged "$work/commands.txt" "$work/headline_table.txt" \
  "$root/scripts/tables/headline_table.py" -o "$work/headline.md" "$work"
cp "$work/headline.md" "$work/machine.txt" "$out/"
tar -czf "$out/headline.tar.gz" -C "$out" headline
rm -rf "$work"
echo "bench_headline.sh: done in $((SECONDS - started)) s: $out/headline.md," \
  "$out/headline.tar.gz" >&2
cat "$out/headline.md"
