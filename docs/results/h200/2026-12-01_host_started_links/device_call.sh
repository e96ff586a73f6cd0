#!/usr/bin/env bash
# Session 72's calls on one H200, two ranks sharing it under NVIDIA MPS (a proxy of the two-GPU
# exchange: scripts/gpu/run_with_mps.sh), from the repository root on the GPU machine, .deps from
# scripts/stage_offline_deps.sh carried and .ab/before, a copy of 3d09a48 (`git archive 3d09a48
# | tar -x -C .ab/before`). STEPS lists the steps of a call. The table of links comes from a
# measurement-only patch, never merged, that stamps the device clock in the resident piece grid:
# the watcher saw pack_start (stamp 0), the announce stored by block 0's second warp (1), the
# start relayed (2), block 1 saw the relay (3), its piece's receiver free (4), the piece moved
# (5) and counted into the receiver (6), the receiving block saw every piece arrive (7), the
# completing block before and after storing pieces_done (8, 9); each rank prints each stamp's
# median after stamp 0, and (s12) from stamp 0 to the next exchange's.
#   builds  the tree before (.ab/before, build-before) and this tree (build-gpu), halo_bench
#           alone, and a copy of each with its stamps patch (host_links_3d09a48.patch,
#           host_links_56a053b.patch here) into $o/links_before and $o/links_after, side by side
#   ab      halo_bench's resident over node at cubes 200 and 800 (CUBES), 1000 verified
#           exchanges, the two trees in turn (their order turned every round), ROUNDS rounds (2);
#           ab/summary.txt
#   links   the stamped copies at cube 200 (LINK_CUBES) in turn, ROUNDS rounds, no traced pass,
#           HALOFLAG_STAMPS=1; links/summary.txt
#   tests   this tree's GPU tests (GPU_TESTS, a ctest regex: the strategies at 1 rank, at 2 and
#           with the node transport's pinned-host fallback, the stream-ordered exchange, the
#           resident kernels beside the program's work, the whole exchange from the kernel and
#           Jacobi3D's reference), built into build-gpu with the tests on
# Call 1 ran the record h200x2/2026-12-01_gpu_memory_polls's device_call.sh, steps links_build
# and links, on 47226bb with host_links_47226bb.patch there.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
here=docs/results/h200/2026-12-01_host_started_links
declare -A patches=([before]=$root/$here/host_links_3d09a48.patch
  [after]=$root/$here/host_links_56a053b.patch)
declare -A sources=([before]=$root/.ab/before [after]=$root)

# stamped_copy TREE JOBS: the copy of TREE's source with its stamps patch, halo_bench built in
# $o/links_TREE/tree/build.
stamped_copy() {
  local copy=$o/links_$1/tree
  rm -rf "$copy" && mkdir -p "$copy"
  (cd "${sources[$1]}" && tar --exclude='./build*' --exclude=./.git --exclude=./.deps \
    --exclude=./.ab --exclude=./docs/results -cf - .) | tar -x -C "$copy"
  patch -s -d "$copy" -p1 <"${patches[$1]}" || return 1
  if ! configure_cuda "$copy" "$copy/build" "$o/links_$1/configure.log" \
    -DHALOFLAG_BUILD_TESTS=OFF; then
    tail -30 "$o/links_$1/configure.log"
    return 1
  fi
  cmake --build "$copy/build" -j "$2" --target halo_bench >"$o/links_$1/build.log" 2>&1 ||
    { grep -B2 -A8 "error:" "$o/links_$1/build.log" | head -40; return 1; }
}

for step in $STEPS; do
  case $step in
    builds)
      jobs=$(($(nproc) / 4))
      build_before_in_background "$jobs" halo_bench
      for tree in before after; do stamped_copy "$tree" "$jobs" & done
      configure_or_stop -DHALOFLAG_BUILD_TESTS=OFF -DHALOFLAG_PYTHON=OFF
      build_or_errors "$jobs" halo_bench
      wait_for_before
      echo "built: $(left) s left"
      ;;
    tests)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors "$(nproc)" halo_exchange_strategies_mpi_test halo_stream_exchange_mpi_test \
        halo_resident_coexistence_mpi_test halo_embedded_whole_exchange_mpi_test \
        jacobi3d_reference_mpi_test
      echo "tests built: $(left) s left"
      gpu_tests='strategies_cuda_np|strategies_cuda_host_mapping|stream_exchange_cuda_np'
      gpu_tests+='|resident_coexistence|embedded_whole_exchange_cuda_np2'
      gpu_tests+='|jacobi3d_reference_cuda_np2'
      GPU_TESTS=${GPU_TESTS:-$gpu_tests} TEST_SECONDS=$(($(left) - 10)) stencil_gpu_tests
      ;;
    ab)
      halo_bench_trees ab
      echo "ab: $(left) s left"
      ;;
    links)
      mkdir -p "$o/links"
      turn=(before after)
      for round in $(seq 1 "$rounds"); do
        for cube in ${LINK_CUBES:-200}; do
          for tree in "${turn[@]}"; do
            (($(left) > 30)) || break 3
            HALOFLAG_STAMPS=1 halo_bench_node "$o/links_$tree/tree/build/bench/halo_bench" \
              "$o/links" "${tree}_${cube}_r$round" "$cube" resident --trace-exchanges 0 |
              tee -a "$o/links/summary.txt"
            grep "^stamps" "$o/links/${tree}_${cube}_r$round.txt" | tee -a "$o/links/summary.txt"
          done
        done
        turn=("${turn[1]}" "${turn[0]}")
      done
      rm -rf "$o"/links_*/tree
      echo "links: $(left) s left"
      ;;
  esac
done
