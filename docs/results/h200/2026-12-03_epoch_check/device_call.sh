#!/usr/bin/env bash
# Session 81's calls on one H200 (issues 58 and 59: the launched grids' announce no longer notes
# the epoch in announced_to first, self copies are fenced at device scope; in calls 1-2 also the
# epoch check of 3b435c1, taken back), from the repository root on the GPU machine,
# with the builds made here beforehand by scripts/device/prebuild.sh and carried in .prebuilt:
# build-gpu (this tree: both examples, halo_bench and the GPU tests named below),
# build-before (the tree before, named in README.md: both examples and halo_bench) and
# build-first (this tree with jacobi2d_stamps.patch, measurement only: jacobi2d). STEPS lists
# the steps of a call (default: tests one two):
#   tests, one, two, j3d, halo  as trees_step (scripts/device/device_call_common.sh) runs
#          them, the norm every iteration and every 100, the TREES (before after; first names
#          build-first) in turn, ROUNDS rounds (2)
#   stamps build-first's jacobi2d with HALOFLAG_STAMPS=1, one rank at 1024 x 513 and
#          4096 x 2049 and two under MPS at 1024^2, the norm every iteration and every 100: each
#          timed run prints, for thread 0 of blocks 0, 1, 8, half-way and last, the medians of
#          its stamps (top of the iteration, start returned, interior swept, finish returned,
#          barrier passed) after block 0's top, and block 0's next top; into stamps/
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
STEPS=${STEPS:-tests one two}
this_tree_call
use_prebuilt
read -ra trees <<<"${TREES:-before after}"
builds[first]=$root/build-first

# stamped NAME RANKS SHAPE NCCHECK: one run of build-first's jacobi2d with its stamps on; the
# last timed run's stamps with the exchange on into stamps/summary.txt and on stdout.
stamped() {
  HALOFLAG_STAMPS=1 jacobi2d_form stamps "$1" "$2" first "$3" "$4" >/dev/null
  { echo "$1:"; grep -A5 "^stamps exchange 1" "$o/stamps/$1.txt" | tail -6; } |
    tee -a "$o/stamps/summary.txt"
}

for step in $STEPS; do
  if [[ $step != stamps ]]; then
    trees_step "$step"
    continue
  fi
  mkdir -p "$o/stamps"
  for nccheck in 1 100; do
    for shape in 1024x513 4096x2049; do
      stamped "one_${shape}_c$nccheck" 1 "$shape" "$nccheck"
    done
    stamped "two_1024_c$nccheck" 2 1024 "$nccheck"
  done
  echo "stamps: $(left) s left"
done
