#!/usr/bin/env bash
# Before/after A/B of source trees on one GPU shared by 2 ranks under MPS: each tree's halo_bench
# (CUDA, Release) on the same arguments, the trees in turn within each round, so that the
# machine's slow phases weigh on all of them alike.
#   scripts/ab/ab_trees.sh OUT_DIR NAME=SOURCE_DIR... -- [halo_bench arguments...]
#   e.g. git worktree add /tmp/before <commit>
#        scripts/ab/ab_trees.sh out before=/tmp/before after=. -- --transport auto --strategy resident
# Environment: HALOFLAG_AB_ROUNDS (default 3), HALOFLAG_CMAKE_ARGS (extra configure arguments,
# e.g. -DCMAKE_PREFIX_PATH=.deps/root/usr on a machine without packages).
# Writes OUT_DIR/NAME_ROUND.{txt,json} and prints each run's table.
set -uo pipefail
out=${1:?usage: ab_trees.sh OUT_DIR NAME=SOURCE_DIR... -- [halo_bench arguments...]}
shift
names=()
sources=()
while [[ $# -gt 0 && $1 != -- ]]; do
  names+=("${1%%=*}")
  sources+=("${1#*=}")
  shift
done
[[ ${1:-} == -- ]] && shift
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for i in "${!names[@]}"; do
  build=${sources[$i]}/build-ab-${names[$i]}
  # shellcheck disable=SC2086
  cmake -S "${sources[$i]}" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
    -DHALOFLAG_BUILD_TESTS=OFF ${HALOFLAG_CMAKE_ARGS:-} >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target halo_bench >"$out/build_${names[$i]}.log" 2>&1 ||
    { echo "ab_trees: the build of ${sources[$i]} failed ($out/build_${names[$i]}.log)" >&2; exit 1; }
done
mps_dir=$(mktemp -d)
export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
trap 'echo quit | nvidia-cuda-mps-control; rm -rf "$mps_dir"' EXIT
for round in $(seq 1 "${HALOFLAG_AB_ROUNDS:-3}"); do
  for i in "${!names[@]}"; do
    name=${names[$i]}
    mpiexec -n 2 "${sources[$i]}/build-ab-$name/bench/halo_bench" "$@" \
      --json "$out/${name}_$round.json" >"$out/${name}_$round.txt" 2>&1
    echo "== $name, round $round"
    sed -n '/^strategy   /,/^$/p' "$out/${name}_$round.txt"
  done
done
