#!/usr/bin/env bash
# Session 82's calls on one H200 (issues 58 and 59: sends that update their cells move each cell
# in the same pass, with no block barrier and no second read), from the repository root on the
# GPU machine, with the builds made here beforehand by scripts/device/prebuild.sh and carried in
# .prebuilt: build-gpu (this tree: both examples, halo_bench and the GPU tests) and build-before
# (the tree before, named in README.md: both examples and halo_bench). STEPS lists the steps of
# a call (default: tests one two), each as trees_step (scripts/device/device_call_common.sh) runs
# it, the two trees in turn, ROUNDS rounds (2).
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
use_prebuilt
trees=(before after)
for step in ${STEPS:-tests one two}; do trees_step "$step"; done
