#!/usr/bin/env bash
# Session 62's device calls on two H200s, one rank per GPU (repository root on the GPU machine;
# .deps from scripts/stage_offline_deps.sh and .ab carried, .ab/before the tree before the node
# transport's lines, ecf0090). STEPS lists the steps of the call; the build folders are ignored,
# so a warm machine keeps them between calls.
#   build    this tree's examples, their GPU tests, halo_bench and the lines' GPU test into
#            build-gpu; the peer (NVIDIA/multi-gpu-programming-models) into build-peer; the tree
#            before's halo_bench into build-before and both trees' Jacobi3D for the A/B; then the
#            GPU tests of both examples and of the lines
#   bench2d  scripts/bench/bench_stencils.sh, jacobi2d and its peer only
#   bench3d  scripts/bench/bench_stencils.sh, Jacobi3D only (SIZES_3D, 32 64 128 256)
#   lines    halo_bench resident and stream_notify over node, cubes 200 and 800, the node peers
#            in lines (--node-lines-up-to-bytes 1048576) and not (0, the default), in turn;
#            Jacobi3D at 32^3 per rank the same way; ROUNDS rounds (2)
#   benchab  scripts/ab/ab_halo_bench_trees.sh on the builds already made: every flag and bulk
#            strategy over node and mpi, and nccl, the tree before against this one, ROUNDS rounds
#   jab      scripts/ab/ab_jacobi_trees.sh, the tree before against this one, ROUNDS rounds
#   pieces   after the piece-moving kernels' build without the lines' code: halo_bench, the tree
#            before's too, and the GPU tests of the node transport and of the strategies that
#            move pieces, run (then benchab, with HALOFLAG_AB_TRANSPORTS=node, measures them;
#            the tests leave it 200 s)
#   links    the table of links on two GPUs (scripts/bench/jacobi_resident_breakdown.sh, setting
#            0): the tree before (its 2026-11-28 stamps.patch) and this tree (this folder's
#            stamps.patch) with its peers in lines and not, both copies built first, LINK_ROUNDS
#            rounds (2); not yet run
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
before_after_call
build=${builds[after]}
peer=$root/build-peer
before_source=$root/build-source-before  # a copy of .ab/before, so that its A/B build is kept
ranks=${RANKS:-2}
mps_when_shared "$ranks"
cards_and_tree
[[ -d $before_source ]] || cp -r .ab/before "$before_source"
HALOFLAG_AB_LABELS="before=$(cat .ab/before/TREE)"
export HALOFLAG_AB_LABELS
for step in $STEPS; do
  case $step in
    build)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_before_in_background 3 halo_bench
      HALOFLAG_AB_BUILD_ONLY=1 scripts/ab/ab_jacobi_trees.sh "$o/jab" before="$before_source" \
        after="$root" >"$o/jab_build.log" 2>&1 &
      cmake --build "$build" -j 16 --target haloflag_jacobi2d jacobi2d_reference_mpi_test \
        haloflag_jacobi3d jacobi3d_reference_mpi_test halo_bench halo_node_lines_mpi_test \
        >"$o/build.log" 2>&1 &
      scripts/bench/build_jacobi_peer.sh "$root/.deps/peer/multi-gpu-programming-models" "$peer" \
        >"$o/peer_build.log" 2>&1 || tail -20 "$o/peer_build.log"
      wait || { grep -B2 -A8 "error:" "$o"/build*.log "$o/jab_build.log" | head -60; exit 1; }
      echo "built: $(left) s left"
      in_build "$build" "$o/ctest_gpu.txt" timeout 240 ctest -L gpu --timeout 200 \
        --output-on-failure -R "jacobi2d_reference_cuda|jacobi3d_reference_cuda|node_lines_cuda"
      grep -E "tests passed|\*\*\*|Failed|Passed|Total Test" "$o/ctest_gpu.txt" | tail -12
      echo "tested: $(left) s left"
      ;;
    pieces)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_before_in_background 4 halo_bench
      build_or_errors 28 halo_bench halo_node_lines_mpi_test halo_node_placement_mpi_test \
        halo_node_transport_mpi_test halo_embedded_whole_exchange_mpi_test \
        halo_exchange_strategies_mpi_test halo_stream_exchange_mpi_test kernels_node_lines_test \
        halo_resident_coexistence_mpi_test
      wait_for_before
      echo "built: $(left) s left"
      pieces_tests="node_lines|node_placement|node_transport|embedded_whole|strategies"
      spare=20  # the time benchab needs, when it follows
      [[ " $STEPS " == *" benchab "* ]] && spare=200
      in_build "$build" "$o/ctest_gpu_pieces.txt" timeout $(($(left) - spare)) ctest -L gpu \
        --timeout 120 --output-on-failure -R "$pieces_tests|stream_exchange|resident_coexistence"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Total Test" "$o/ctest_gpu_pieces.txt" |
        tail -30
      echo "tested: $(left) s left"
      ;;
    links)
      links_table "$before_source" "$root/docs/results/h200x2/2026-11-29_two_gpus/stamps.patch" \
        "lines=--node-lines-up-to-bytes 1048576;counted="
      ;;
    bench2d | bench3d)
      stencils_of "${step#bench}"
      ;;
    lines)
      mkdir -p "$o/lines"
      for round in $(seq 1 "$rounds"); do
        for cube in 200 800; do
          for strategy in resident stream_notify; do
            for lines in 1048576 0; do
              (($(left) > 40)) || break 4
              halo_bench_node "$build/bench/halo_bench" "$o/lines" \
                "${strategy}_${cube}_lines${lines}_r$round" "$cube" "$strategy" \
                --node-lines-up-to-bytes "$lines"
            done
          done
        done
        for points in 7 27; do
          for lines in 1048576 0; do
            (($(left) > 40)) || break 3
            jacobi32_lines "$o/lines" "$points" "$lines" "$round"
          done
        done
      done
      echo "lines: $(left) s left"
      ;;
    benchab)
      HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$build HALOFLAG_BASELINE_SRC=$before_source \
        HALOFLAG_BASELINE_BUILD=${builds[before]} HALOFLAG_ROUNDS=$rounds \
        timeout $(($(left) - 10)) scripts/ab/ab_halo_bench_trees.sh "$o" \
        >"$o/benchab_log.txt" 2>&1 ||
        { echo "benchab failed or cut"; tail -20 "$o/benchab_log.txt"; }
      tail -40 "$o/benchab_log.txt"
      echo "benchab: $(left) s left"
      ;;
    jab)
      HALOFLAG_AB_ROUNDS=$rounds timeout $(($(left) - 10)) scripts/ab/ab_jacobi_trees.sh "$o/jab" \
        before="$before_source" after="$root" >"$o/jab_log.txt" 2>&1 ||
        { echo "A/B failed or cut"; tail -20 "$o/jab_log.txt"; }
      cat "$o/jab/summary.md" 2>/dev/null
      echo "jab: $(left) s left"
      ;;
  esac
done
