#!/usr/bin/env bash
# Where the time of Jacobi3D's resident iteration goes, in its whole-exchange form: a copy of a
# tree with docs/results/h200x2/2026-11-28_whole_exchange/resident_breakdown.patch, which lets
# HALOFLAG_EXP choose what each iteration of the resident kernel does, runs on 2 ranks over the
# node transport (one GPU per rank), 32^3 cells per rank, at 7 and 27 points, in rounds:
#   0  the iteration as built (and the conventional and stream variants beside it)
#   1  no exchange; the grid's failure check as built (a read of the failure word)
#   2  no exchange; a plain grid barrier for the failure check
#   3  the exchange; a plain grid barrier for the failure check
#   4  the exchange with no interior update; the failure check as built
#   5  the exchange with no interior update; a plain grid barrier
# Settings 1, 2, 4 and 5 compute wrong fields: the patch is for measurement only, never merged.
#   scripts/jacobi_resident_breakdown.sh OUT_DIR [SOURCE_DIR]   (SOURCE_DIR: this tree)
# Environment: HALOFLAG_BREAKDOWN_ROUNDS (2). Writes OUT_DIR/runs.txt (every run's table) and
# OUT_DIR/build.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || {
  echo "usage: jacobi_resident_breakdown.sh OUT_DIR [SOURCE_DIR]" >&2
  exit 2
}
out=$1
source_dir=$(cd "${2:-$root}" && pwd)
patch_file=$root/docs/results/h200x2/2026-11-28_whole_exchange/resident_breakdown.patch
rounds=${HALOFLAG_BREAKDOWN_ROUNDS:-2}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "HALOFLAG_BREAKDOWN_ROUNDS must be >= 1" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The copy: the tree's tracked files (or all of them, outside git), then the patch.
copy=$out/tree
rm -rf "$copy"
mkdir -p "$copy"
if git -C "$source_dir" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$source_dir" archive HEAD | tar -x -C "$copy"
else
  cp -a "$source_dir/." "$copy/"
fi
patch -d "$copy" -p1 <"$patch_file" >"$out/build.log"
configure=(-DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=OFF)
[[ -d $root/.deps/root/usr ]] && configure+=(-DCMAKE_PREFIX_PATH="$root/.deps/root/usr")
cmake -S "$copy" -B "$copy/build" "${configure[@]}" >>"$out/build.log" 2>&1
cmake --build "$copy/build" -j "$(nproc)" --target haloflag_jacobi3d >>"$out/build.log" 2>&1
program=$copy/build/examples/jacobi3d/haloflag_jacobi3d

: >"$out/runs.txt"
for round in $(seq 1 "$rounds"); do
  for stencil in 7 27; do
    for setting in 0 1 2 3 4 5; do
      variant=resident
      [[ $setting == 0 ]] && variant=all
      echo "== round $round stencil $stencil exp $setting" >>"$out/runs.txt"
      HALOFLAG_EXP=$setting timeout 60 mpiexec -np 2 "$program" --variant "$variant" \
        --stencil "$stencil" --local 32 --iterations 200 --repeats 10 --transport node \
        >>"$out/runs.txt" 2>&1 || echo "setting $setting failed" >>"$out/runs.txt"
    done
  done
done
grep -E "^==|^conventional|^resident|^stream|failed" "$out/runs.txt"
