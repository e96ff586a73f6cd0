#!/usr/bin/env bash
# Session 79's calls on one H200 (issue 58: jacobi2d's resident interior dealt so that the
# members left with one item fewer are the blocks the exchange gives more to do), and session
# 80's (2026-12-03_jacobi2d_vector_stores: the same steps on other trees), from the
# repository root on the GPU machine, with the builds made here beforehand by
# scripts/device/prebuild.sh and carried in .prebuilt: build-gpu (this tree: jacobi2d and
# Jacobi3D with their reference tests), build-before (the tree before, named in README.md) and,
# for a call that names it in TREES, build-first (a patched copy, named in README.md: jacobi2d).
# TREES lists the trees a step sets side by side (default: before after). STEPS lists the steps
# of a call (default: tests one):
#   tests  the GPU tests of both examples (their references at 1 and 2 ranks) of this tree
#   one    one rank's resident jacobi2d at SHAPES (1024 1024x513 4096x2049 4096: N for N x N
#          cells, NXxNY otherwise; 1024 x 513 and 4096 x 2049 are the rows a rank of two holds,
#          its exchange going to itself), the norm every iteration and every 100, the TREES
#          in turn (their order turned by one every round), ROUNDS rounds (2), into one/
#   every  one rank's jacobi2d, every variant, at SIZES_EVERY (1024 4096 16384), the norm every
#          iteration and every 100, the TREES in turn as in one, into every/
#   two    the same as one on two ranks sharing the GPU under NVIDIA MPS (a proxy: their
#          exchange is a copy within one GPU, and each rank's grid takes half of it) at
#          SIZES_TWO (1024 4096), into two/
# Each run: -niter 1000 (200 from 4096 columns), 1 warm-up and 5 timed runs; its median, p10
# and p90 per iteration, its update alone and the launch it describes, in FOLDER/summary.txt.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
STEPS=${STEPS:-tests one}
this_tree_call
use_prebuilt

builds[first]=$root/build-first
read -ra trees <<<"${TREES:-before after}"

for step in $STEPS; do
  case $step in
    tests)
      GPU_TESTS="jacobi2d_reference_cuda|jacobi3d_reference_cuda" stencil_gpu_tests
      ;;
    one)
      jacobi2d_trees_in_turn one 1 "${SHAPES:-1024 1024x513 4096x2049 4096}"
      echo "one: $(left) s left"
      ;;
    every)
      VARIANTS=all jacobi2d_trees_in_turn every 1 "${SIZES_EVERY:-1024 4096 16384}"
      echo "every: $(left) s left"
      ;;
    two)
      jacobi2d_trees_in_turn two 2 "${SIZES_TWO:-1024 4096}"
      echo "two: $(left) s left"
      ;;
  esac
done
