#!/usr/bin/env bash
# Session 71's device calls on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried, and for the steps of two trees .ab/before, a
# copy of 6c1602f: `git archive 6c1602f | tar -x -C .ab/before`). STEPS lists the steps of a call;
# the build folders are ignored, so a warm machine keeps them between calls.
#   links        the table of links of 6c1602f with this folder's stamps.patch, whose settings
#                change how the receiving block completes: 0 as built, 20 the work counted before
#                the tell, 21 the count relaxed, 22 both, 23 the count relaxed and the tell stored
#                by a thread of the block's second warp (scripts/bench/jacobi_resident_breakdown.sh,
#                32^3 per rank, 2 rounds); links/links.md
#   links_both   the table of links before and after: 6c1602f (.ab/before) with stamps.patch and
#                this tree with stamps_after.patch (the same stamps, no settings), both copies
#                built side by side, then each run at setting 0, 2 rounds, the tree before first;
#                links_before/links.md, links_after/links.md
#   trees_build  the tree before (.ab/before) into build-before (Jacobi3D and halo_bench) and this
#                tree into build-gpu (the same, and the GPU tests of Jacobi3D and of the whole
#                exchange from the kernel), side by side
#   tests        those GPU tests (GPU_TESTS, a ctest regex: jacobi3d_reference|embedded_whole)
#   trees        Jacobi3D at SIZES_3D (32 64 128 256), 7 and 27 points, the tree before and this
#                tree in turn (their order swapped every other round), ROUNDS rounds (2), each run
#                beside both conventional loops, checked against the single-rank reference up to
#                64^3; trees/summary.txt
#   halo_ab      halo_bench's A/B of the two builds (scripts/ab/ab_halo_bench_trees.sh: cubes 200
#                and 800, AB_STRATEGIES, by default every flag and bulk strategy, over
#                AB_TRANSPORTS, node and mpi by default, AB_ROUNDS rounds, 2, without nccl);
#                ab_halo_bench/summary.txt
# Calls 2 and 3 had .ab/before at 6c1602f (before the receiving block's split), call 5 at 63ca791
# (with it, before the start's announce moved to the second warp).
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
here=docs/results/h200x2/2026-11-30_receive_completion
VARIANTS=conventional,conventional_overlap,resident

for step in $STEPS; do
  case $step in
    links)
      HALOFLAG_BREAKDOWN_SETTINGS="0 20 21 22 23" HALOFLAG_BREAKDOWN_ROUNDS=2 \
        HALOFLAG_BREAKDOWN_LABEL=6c1602f timeout $(($(left) - 10)) \
        scripts/bench/jacobi_resident_breakdown.sh "$o/links" . "$here/stamps.patch" \
        >"$o/links_stdout.txt" 2>&1
      rm -rf "$o/links/tree"
      cat "$o/links/links.md"
      ;;
    links_both)
      export HALOFLAG_BREAKDOWN_SETTINGS=0 HALOFLAG_BREAKDOWN_ROUNDS=2
      breakdown=scripts/bench/jacobi_resident_breakdown.sh
      HALOFLAG_BREAKDOWN_BUILD_ONLY=1 "$breakdown" "$o/links_before" .ab/before \
        "$here/stamps.patch" >"$o/links_before_build.txt" 2>&1 &
      HALOFLAG_BREAKDOWN_BUILD_ONLY=1 "$breakdown" "$o/links_after" . "$here/stamps_after.patch" \
        >"$o/links_after_build.txt" 2>&1 &
      wait
      echo "links built: $(left) s left"
      for tree in before after; do
        HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_LABEL=$tree timeout $(($(left) - 10)) \
          "$breakdown" "$o/links_$tree" . "$here/stamps_after.patch" >"$o/links_$tree.txt" 2>&1
        rm -rf "$o/links_$tree/tree"
        cat "$o/links_$tree/links.md"
      done
      ;;
    trees_build)
      build_before_in_background $(($(nproc) / 2)) haloflag_jacobi3d halo_bench
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors $(($(nproc) / 2)) haloflag_jacobi3d halo_bench jacobi3d_reference_mpi_test \
        halo_embedded_whole_exchange_mpi_test
      wait_for_before
      echo "trees built: $(left) s left"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-jacobi3d_reference|embedded_whole} stencil_gpu_tests
      ;;
    trees)
      jacobi3d_trees trees "${SIZES_3D:-32 64 128 256}"
      echo "trees: $(left) s left"
      ;;
    halo_ab)
      HALOFLAG_PREBUILT=1 HALOFLAG_BASELINE_SRC=.ab/before \
        HALOFLAG_BASELINE_BUILD="$root/build-before" \
        HALOFLAG_BUILD_DIR="$root/build-gpu" HALOFLAG_ROUNDS=${AB_ROUNDS:-2} HALOFLAG_AB_NCCL=0 \
        HALOFLAG_AB_STRATEGIES=${AB_STRATEGIES:-} HALOFLAG_AB_TRANSPORTS=${AB_TRANSPORTS:-} \
        timeout $(($(left) - 10)) scripts/ab/ab_halo_bench_trees.sh "$o" \
        >"$o/halo_ab_log.txt" 2>&1 ||
        { echo "halo_bench A/B failed or cut"; tail -20 "$o/halo_ab_log.txt"; }
      cat "$o/ab_halo_bench/summary.txt" 2>/dev/null
      echo "halo_ab: $(left) s left"
      ;;
  esac
done
