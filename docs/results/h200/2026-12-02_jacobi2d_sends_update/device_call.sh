#!/usr/bin/env bash
# Session 78's calls on one H200 (issue 58: jacobi2d's resident rows updated inside its sends,
# and its row runs in one round), from the repository root on the GPU machine, with the builds
# made here beforehand by scripts/device/prebuild.sh and carried in .prebuilt: build-gpu (this
# tree: jacobi2d and Jacobi3D with their reference tests) and build-before (the tree before,
# named in README.md: jacobi2d). STEPS lists the steps of a call (default: tests one two):
#   tests  the GPU tests of both examples (their references at 1 and 2 ranks) of this tree
#   one    one rank's jacobi2d, resident alone, at SIZES_2D (1024 4096) cells a side, the norm
#          every iteration and every 100: the tree before, this tree as the rule picks (auto)
#          and this tree with --sends-update off, in turn (their order turned every round),
#          ROUNDS rounds (2), into one/
#   two    the same on two ranks sharing the GPU under NVIDIA MPS (a proxy: their exchange is a
#          copy within one GPU, and each rank's grid takes half of it), at 1024^2, into two/
#   grid   this tree's resident jacobi2d at 1024^2, the norm every iteration and every 100: one
#          rank on its default grid (132 blocks), 66 and 264; two ranks under MPS on theirs (66
#          each) and 132; ROUNDS rounds (2), into grid/
#   shapes this tree's resident jacobi2d on one rank at the rows a rank of two holds at 1024^2
#          and 4096^2 (1024 x 513 and 4096 x 2049 cells, its exchange going to itself): the
#          sends updating the rows and the rows first (the rule picks the sends for both), and
#          1024 x 513 on 264 blocks too; the norm every iteration and every 100; ROUNDS rounds
#          (2), into shapes/
#   every  one rank's jacobi2d, every variant, at SIZES_2D (1024 4096 16384), the norm every
#          iteration and every 100, the tree before and this tree in turn (their order turned
#          every round), ROUNDS rounds (2), into every/
# Each run: -niter 1000 (200 at 4096^2 and above), 1 warm-up and 5 timed runs; its median, p10
# and p90 per iteration, its update alone and the launch it describes, in FOLDER/summary.txt.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
STEPS=${STEPS:-tests one two}
this_tree_call
use_prebuilt

# forms_in_turn STEP RANKS SIZES: jacobi2d_form of the three forms at each of SIZES, the norm
# every iteration and every 100, $rounds rounds, the forms' order turned every round.
forms_in_turn() {
  local step=$1 nranks=$2 sizes=$3 round n nccheck form turn
  local forms=(before auto off)
  mkdir -p "$o/$step"
  for round in $(seq 1 "$rounds"); do
    for n in $sizes; do
      for nccheck in 1 100; do
        for turn in 0 1 2; do
          form=${forms[$(((turn + round - 1) % 3))]}
          case $form in
            before) jacobi2d_form "$step" "n${n}_c${nccheck}_before_r$round" "$nranks" before \
              "$n" "$nccheck" ;;
            auto) jacobi2d_form "$step" "n${n}_c${nccheck}_auto_r$round" "$nranks" after "$n" \
              "$nccheck" ;;
            off) jacobi2d_form "$step" "n${n}_c${nccheck}_off_r$round" "$nranks" after "$n" \
              "$nccheck" --sends-update off ;;
          esac
        done
      done
    done
  done
}

# trees_in_turn STEP SIZES: jacobi2d_form of every variant, the tree before and this tree, at
# each of SIZES, the norm every iteration and every 100, $rounds rounds, their order turned
# every round.
trees_in_turn() {
  local step=$1 sizes=$2 round n nccheck tree
  mkdir -p "$o/$step"
  for round in $(seq 1 "$rounds"); do
    for n in $sizes; do
      for nccheck in 1 100; do
        for tree in $( ((round % 2)) && echo before after || echo after before); do
          VARIANTS=all jacobi2d_form "$step" "n${n}_c${nccheck}_${tree}_r$round" 1 "$tree" "$n" \
            "$nccheck"
        done
      done
    done
  done
}

for step in $STEPS; do
  case $step in
    tests)
      GPU_TESTS="jacobi2d_reference_cuda|jacobi3d_reference_cuda" stencil_gpu_tests
      ;;
    one)
      forms_in_turn one 1 "${SIZES_2D:-1024 4096}"
      echo "one: $(left) s left"
      ;;
    two)
      forms_in_turn two 2 1024
      echo "two: $(left) s left"
      ;;
    grid)
      mkdir -p "$o/grid"
      for round in $(seq 1 "$rounds"); do
        for nccheck in 1 100; do
          for blocks in 0 66 264; do
            jacobi2d_form grid "np1_c${nccheck}_b${blocks}_r$round" 1 after 1024 "$nccheck" \
              --resident-blocks "$blocks"
          done
          for blocks in 0 132; do
            jacobi2d_form grid "np2_c${nccheck}_b${blocks}_r$round" 2 after 1024 "$nccheck" \
              --resident-blocks "$blocks"
          done
        done
      done
      echo "grid: $(left) s left"
      ;;
    shapes)
      mkdir -p "$o/shapes"
      for round in $(seq 1 "$rounds"); do
        for shape in 1024x513 4096x2049; do
          for nccheck in 1 100; do
            for form in on off; do
              jacobi2d_form shapes "${shape}_c${nccheck}_${form}_r$round" 1 after "$shape" \
                "$nccheck" --sends-update "$form"
            done
            [[ $shape == 1024x513 ]] &&
              jacobi2d_form shapes "${shape}_c${nccheck}_on_b264_r$round" 1 after "$shape" \
                "$nccheck" --resident-blocks 264
          done
        done
      done
      echo "shapes: $(left) s left"
      ;;
    every)
      trees_in_turn every "${SIZES_2D:-1024 4096 16384}"
      echo "every: $(left) s left"
      ;;
  esac
done
