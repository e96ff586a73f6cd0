#!/usr/bin/env bash
# Sessions 74-76's calls on one H200 (issue 58, item 4: the updates at the memory's rate), from the
# repository root on the GPU machine, with .deps from scripts/stage_offline_deps.sh carried and
# .ab/before, a copy of the tree before without docs/results (named in .ab/before/TREE). The
# other trees are made from this one on the machine, into /tmp/haloflag_trees/NAME, one for each
# NAME of EXTRA: d8 sets kPrefetchPlanes to 8, any other NAME applies NAME.patch (in this folder).
# AFTER=0 leaves this tree out of the builds, the rates and the tests, BEFORE=0 the tree before
# out of the builds and the rates. STEPS lists the steps of a call (default: builds rates tests).
#   trees   the patched trees alone, with no build: a call whose builds were made beforehand by
#           scripts/device/prebuild.sh and carried in .prebuilt (build-gpu for this tree,
#           build-NAME for NAME's; README.md, call 7) runs their tests from these paths
#   builds  every tree's Jacobi3D side by side: before into build-before (tests off), NAME into
#           build-NAME and this tree into build-gpu, with Jacobi3D's reference test
#   rates   one rank's Jacobi3D on the GPU, every variant, at 128^3 and 256^3, 7 and 27 points,
#           the trees in turn (their order turned every round), ROUNDS rounds (2), rounds from
#           FIRST_ROUND (1): each variant's update alone against the copy rate measured in the
#           same run (rates/summary.txt; tables: scripts/tables/update_rate_tables.py rates)
#   tests   Jacobi3D's GPU tests (its reference at 1 and 2 ranks, double and float) of every
#           tree but the one before, or of those TESTS_OF lists
#   grid    the resident variant alone at GRID_LOCAL^3 cells (128; a list runs each), 7 and 27
#           points, 200 iterations, of every rated tree in turn, its grid the default and
#           GRID_BLOCKS blocks (396 528), ROUNDS rounds, into grid/
#           (jacobi3d_LOCAL_STENCIL_TREE_bBLOCKS_rROUND.*; the default grid is b0), GRID_OPTIONS
#           added to each run's command line
#   jacobi  this tree's Jacobi3D alone, on every core
#   ncu     Nsight Compute (--set full) on one rank's update alone at 256^3, 27 and 7 points: the
#           resident kernel (its third launch: warm-up, timed run, update alone) and the
#           conventional variant's box_kernel, of this tree, into ncu/ (every section's details
#           per kernel); or the resident kernel alone of each tree NCU_TREES lists, into
#           ncu/TREE_*
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
STEPS=${STEPS:-builds rates tests}
this_tree_call
read -r -a extra <<<"${EXTRA-d8 apart}"
for name in "${extra[@]}"; do builds[$name]=$root/build-$name; done
mine=(after)
[[ ${AFTER:-1} == 0 ]] && mine=()
tested=("${mine[@]}" "${extra[@]}")
rated=(before "${tested[@]}")
[[ ${BEFORE:-1} == 0 ]] && rated=("${tested[@]}")
use_prebuilt

# tree_of NAME: this tree's sources copied into /tmp/haloflag_trees/NAME and changed as NAME
# says (the header above); its path on stdout.
tree_of() {
  local name=$1 here=$root/docs/results/h200/2026-12-01_column_prefetch
  local tree=/tmp/haloflag_trees/$name
  rm -rf "$tree" && mkdir -p "$tree"
  tar -C "$root" --exclude=./docs/results --exclude='./build*' --exclude=./.ab --exclude=./.deps \
    --exclude=./.git --exclude=./.tools -cf - . | tar -C "$tree" -xf -
  if [[ $name == d8 ]]; then
    sed -i 's/kPrefetchPlanes = 4;/kPrefetchPlanes = 8;/' \
      "$tree/examples/jacobi3d/src/cell_update.hpp"
  else
    patch -s -d "$tree" -p1 <"$here/$name.patch"
  fi
  echo "$tree"
}

# rates_name LOCAL STENCIL TREE ROUND: the name of a run of the rates step, as
# scripts/tables/update_rate_tables.py reads it.
rates_name() { echo "jacobi3d_${1}_${2}_${3}_r$4"; }

# profile_update NAME TREE VARIANT KERNEL SKIP STENCIL: Nsight Compute's full set on the launch of
# KERNEL after SKIP others in one rank's Jacobi3D of TREE, VARIANT alone at 256^3 and STENCIL
# points, 10 iterations, one warm-up and one timed run, then its update alone; every section's
# details and the program's output into $o/ncu/NAME.txt.gz (a report of the full set is some
# 17 MB, too much to keep), its headline figures on stdout.
profile_update() {
  local name=$1 tree=$2 variant=$3 kernel=$4 skip=$5 stencil=$6
  local ncu candidate
  ncu=$(command -v ncu)
  for candidate in /opt/nvidia/nsight-compute/*/ncu; do [[ -n $ncu ]] || ncu=$candidate; done
  (($(left) > 60)) || return 0
  timeout $(($(left) - 30)) "$ncu" --set full --print-details all --kernel-name "regex:$kernel" \
    --launch-skip "$skip" --launch-count 1 \
    mpiexec -n 1 "$(jacobi3d "$tree")" --local 256 --stencil "$stencil" --variant "$variant" \
    --iterations 10 --warmup 1 --repeats 1 >"$o/ncu/$name.txt" 2>&1
  echo "$name:"
  grep -E "^ +(Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|\
Theoretical Occupancy|L1/TEX Hit Rate|L2 Hit Rate|Block Limit Registers|Warp Cycles Per Issued|\
Stall Barrier|Stall Long Scoreboard)" "$o/ncu/$name.txt" | head -14
  gzip "$o/ncu/$name.txt"
}

# build_tree NAME SOURCE JOBS: SOURCE's Jacobi3D and its reference test into builds[NAME], in the
# background; its process in $!.
build_tree() {
  local name=$1 source=$2 jobs=$3
  configure_cuda "$source" "${builds[$name]}" "$o/configure_$name.log" \
    -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF ||
    { tail -30 "$o/configure_$name.log"; exit 1; }
  cmake --build "${builds[$name]}" -j "$jobs" --target haloflag_jacobi3d \
    jacobi3d_reference_mpi_test >"$o/build_$name.log" 2>&1 &
}

for step in $STEPS; do
  case $step in
    trees)
      for name in "${extra[@]}"; do tree_of "$name" >/dev/null; done
      ;;
    builds)
      jobs=$(($(nproc) / ${#rated[@]}))
      [[ ${rated[0]} == before ]] && build_before_in_background "$jobs" haloflag_jacobi3d
      pids=()
      for name in "${tested[@]}"; do
        if [[ $name == after ]]; then source=$root; else source=$(tree_of "$name"); fi
        build_tree "$name" "$source" "$jobs"
        pids+=($!)
      done
      for i in "${!tested[@]}"; do
        wait "${pids[$i]}" ||
          { grep -B2 -A8 "error:" "$o/build_${tested[$i]}.log" | head -60; exit 1; }
      done
      [[ ${rated[0]} == before ]] && wait_for_before
      echo "built: $(left) s left"
      ;;
    rates)
      rates_in_turn rates_name "${rated[@]}"
      echo "rates: $(left) s left"
      ;;
    tests)
      read -r -a test_trees <<<"${TESTS_OF-${tested[*]}}"
      for name in "${test_trees[@]}"; do
        in_build "${builds[$name]}" "$o/ctest_$name.txt" timeout 100 ctest -L gpu --timeout 60 \
          --output-on-failure -R jacobi3d_reference_cuda
        echo "$name: $(grep -E "tests passed" "$o/ctest_$name.txt")"
      done
      echo "tested: $(left) s left"
      ;;
    grid)
      mkdir -p "$o/grid"
      read -r -a grid_options <<<"${GRID_OPTIONS:-}"
      for round in $(seq 1 "$rounds"); do
        for shape in $(for l in ${GRID_LOCAL:-128}; do echo "${l}_7 ${l}_27"; done); do
          for blocks in 0 ${GRID_BLOCKS-396 528}; do
            for name in "${rated[@]}"; do
              (($(left) > 30)) || break 4
              cells=${shape%_*} stencil=${shape#*_}
              run=jacobi3d_${cells}_${stencil}_${name}_b${blocks}_r$round
              timeout 60 mpiexec -n 1 "$(jacobi3d "$name")" --local "$cells" --stencil "$stencil" \
                --variant resident --resident-blocks "$blocks" --iterations 200 --repeats 5 \
                "${grid_options[@]}" \
                --json "$o/grid/$run.json" >"$o/grid/$run.txt" 2>&1
              echo "$run: $(awk '/^resident / {print "iteration", $2}' "$o/grid/$run.txt" |
                head -1); $(grep -A3 '^update alone' "$o/grid/$run.txt" | grep -E '%$' |
                awk '{printf "update %s %s", $2, $5}') [$(grep -oE 'grid: [0-9]+ blocks' \
                "$o/grid/$run.txt" | head -1)]" | tee -a "$o/grid/summary.txt"
            done
          done
        done
      done
      echo "grid: $(left) s left"
      ;;
    jacobi)
      build_this_tree haloflag_jacobi3d
      ;;
    ncu)
      mkdir -p "$o/ncu"
      for stencil in 27 7; do
        if [[ -z ${NCU_TREES:-} ]]; then
          profile_update "resident_256_$stencil" after resident resident_kernel 2 "$stencil"
          profile_update "conventional_256_$stencil" after conventional box_kernel 15 "$stencil"
        fi
        for tree in ${NCU_TREES:-}; do
          profile_update "${tree}_resident_256_$stencil" "$tree" resident resident_kernel 2 \
            "$stencil"
        done
      done
      echo "ncu: $(left) s left"
      ;;
  esac
done
