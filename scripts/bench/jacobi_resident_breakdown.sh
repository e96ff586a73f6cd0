#!/usr/bin/env bash
# Where the time of Jacobi3D's resident iteration (the whole exchange from the kernel) goes: a
# copy of a tree with a measurement-only patch (never merged) runs on 2 ranks over the node
# transport (one GPU per rank; on a one-GPU machine both ranks on it under MPS, a proxy:
# scripts/gpu/run_with_mps.sh), 32^3 cells per rank (HALOFLAG_BREAKDOWN_LOCAL), at 7 and 27
# points, in rounds, once per setting (HALOFLAG_EXP, which the patch reads). The patches, each
# with its settings:
#  - docs/results/h200x2/2026-11-30_receive_completion/stamps_from_d249bba.patch (the default;
#    fits the trees whose blocks store their words into node peers from their second warp, from
#    d249bba: stamp 3, after block 0's announce, is that warp's), its stamps_after.patch (fits
#    63ca791, whose start's announce was thread 0's) and stamps.patch (fits 6c1602f, with
#    settings 20-23: the ways to complete a receive, that record's README),
#    docs/results/h200x2/2026-11-30_sends_update/stamps.patch (fits the trees whose
#    exchange start may update the boundary, from c636c26 to before the interior counter, 0494f99:
#    stamp 1 is then stamp 0),
#    docs/results/h200x2/2026-11-30_next_exchange/stamps.patch (the trees whose finish may tell
#    the next exchange, from 0193473 to c636c26: stages 2-3 are then the announce of the peers
#    not told),
#    docs/results/h200x2/2026-11-29_two_gpus/stamps.patch (the trees whose piece-moving kernels
#    come in two builds, from 0af27d0, until the lines' build entered the resident Jacobi3D
#    iteration; docs/results/h200x2/2026-11-30_resident_grid/stamps_before.patch is the same
#    stamps on 21a93c7, the tree before the told path),
#    docs/results/h200/2026-11-29_node_lines/stamps.patch (the trees with the node transport's
#    lines, to 4e241a4) and docs/results/h200x2/2026-11-28_whole_exchange_links/stamps.patch
#    (fits the trees from examples/common's CooperativeGrid to before the lines, ecf0090; its
#    version in commit d909832 fits 5253634): thread 0 of chosen blocks stamps %globaltimer at 15
#    points of each epoch (the announce, the wait for the peer's ghosts free, piece 0's move and
#    count, the receiving block's wait and completion, the barriers; with lines: the check of the
#    set of words, the words stored, the receiving block's words seen and unpacked) and each rank
#    prints its medians; the links' table (scripts/tables/resident_links_table.py) goes to
#    OUT_DIR/links.md. Settings:
#      0  the iteration as built
#      6  the grid's last block (no boundary cells) announces ghosts free at the top of the
#         iteration, instead of block 0 after the boundary update
#  - docs/results/h200x2/2026-11-28_whole_exchange/resident_breakdown.patch (fits a72bafc),
#    which leaves out parts of the iteration (their fields are wrong):
#      0  as built; 1 no exchange; 2 no exchange, a plain grid barrier for the failure check;
#      3 the exchange, a plain barrier; 4 the exchange without the interior update; 5 the same
#      with a plain barrier
#   scripts/bench/jacobi_resident_breakdown.sh OUT_DIR [SOURCE_DIR [PATCH]]   (SOURCE_DIR: this tree)
# Environment: HALOFLAG_BREAKDOWN_LOCAL (32: the cells per rank along each axis; 200 iterations a
# run, 50 from 256), HALOFLAG_BREAKDOWN_ROUNDS (2), HALOFLAG_BREAKDOWN_SETTINGS ("0 6";
# "0 1 2 3 4 5" for the older patch), HALOFLAG_BREAKDOWN_LABEL (tree),
# HALOFLAG_BREAKDOWN_ROUTES ("NAME=OPTIONS;...": each setting runs once per route with the
# route's Jacobi3D options added, labelled LABEL/NAME, e.g.
# "lines=;counted=--node-lines-up-to-bytes 0"; default one run, no options).
# Writes OUT_DIR/runs.txt (every run's table, and its stamps), OUT_DIR/build.log and, with
# stamps, OUT_DIR/links.md. HALOFLAG_BREAKDOWN_BUILD_ONLY=1 builds the copy and stops;
# HALOFLAG_BREAKDOWN_PREBUILT=1 runs the copy built before in the same OUT_DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || {
  echo "usage: jacobi_resident_breakdown.sh OUT_DIR [SOURCE_DIR [PATCH]]" >&2
  exit 2
}
out=$1
source_dir=$(cd "${2:-$root}" && pwd)
patch_file=${3:-$root/docs/results/h200x2/2026-11-30_receive_completion/stamps_from_d249bba.patch}
rounds=${HALOFLAG_BREAKDOWN_ROUNDS:-2}
local_cells=${HALOFLAG_BREAKDOWN_LOCAL:-32}
iterations=$((local_cells >= 256 ? 50 : 200))
settings=${HALOFLAG_BREAKDOWN_SETTINGS:-0 6}
label=${HALOFLAG_BREAKDOWN_LABEL:-tree}
IFS=';' read -r -a routes <<<"${HALOFLAG_BREAKDOWN_ROUTES:-=}"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "HALOFLAG_BREAKDOWN_ROUNDS must be >= 1" >&2; exit 2; }
[[ $local_cells =~ ^[1-9][0-9]*$ ]] || {
  echo "HALOFLAG_BREAKDOWN_LOCAL must be >= 1" >&2
  exit 2
}
[[ -f $patch_file ]] || { echo "jacobi_resident_breakdown.sh: no patch $patch_file" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The copy: the tree's files without build folders, .git, staged dependencies and results,
# then the patch.
copy=$out/tree
program=$copy/build/examples/jacobi3d/haloflag_jacobi3d
if [[ ${HALOFLAG_BREAKDOWN_PREBUILT:-0} != 1 ]]; then
  rm -rf "$copy"
  mkdir -p "$copy"
  tar -C "$source_dir" --exclude='./build*' --exclude=./.deps --exclude=./.git --exclude=./.ab \
    --exclude=./docs/results -cf - . | tar -x -C "$copy"
  patch -d "$copy" -p1 <"$patch_file" >"$out/build.log"
  configure=(-DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=OFF
    -DHALOFLAG_PYTHON=OFF)
  [[ -d $root/.deps/root/usr ]] && configure+=(-DCMAKE_PREFIX_PATH="$root/.deps/root/usr")
  cmake -S "$copy" -B "$copy/build" "${configure[@]}" >>"$out/build.log" 2>&1
  cmake --build "$copy/build" -j "$(nproc)" --target haloflag_jacobi3d >>"$out/build.log" 2>&1
fi
[[ ${HALOFLAG_BREAKDOWN_BUILD_ONLY:-0} == 1 ]] && exit 0

# A tree whose Jacobi3D times each update alone would add those runs' stamps to the links.
quiet=()
"$program" --help 2>/dev/null | grep -q -- --no-update-rate && quiet=(--no-update-rate)
: >"$out/runs.txt"
for round in $(seq 1 "$rounds"); do
  for stencil in 7 27; do
    for setting in $settings; do
      for route in "${routes[@]}"; do
        name=${route%%=*}
        read -r -a extra <<<"${route#*=}"
        variant=resident
        [[ $setting == 0 ]] && variant=all
        echo "== $label${name:+/$name} round $round stencil $stencil exp $setting" >>"$out/runs.txt"
        HALOFLAG_STAMPS=1 HALOFLAG_EXP=$setting timeout 60 "$root/scripts/gpu/run_with_mps.sh" 2 \
          mpiexec -np 2 "$program" --variant "$variant" --stencil "$stencil" \
          --local "$local_cells" --iterations "$iterations" --repeats 10 --transport node \
          "${quiet[@]}" "${extra[@]}" \
          >>"$out/runs.txt" 2>&1 || echo "setting $setting failed" >>"$out/runs.txt"
      done
    done
  done
done
grep -E "^==|^conventional|^resident|^stream|failed" "$out/runs.txt"
if grep -q "^stamps " "$out/runs.txt"; then
  "$root/scripts/tables/resident_links_table.py" "$out/runs.txt" | tee "$out/links.md"
fi
