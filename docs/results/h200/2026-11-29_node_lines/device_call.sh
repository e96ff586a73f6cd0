#!/usr/bin/env bash
# Session 58's device calls (repository root on the GPU machine; .deps from
# scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; build-gpu/ is
# ignored, so a warm machine keeps it between calls.
#   build    halo_bench, Jacobi3D and the GPU tests of the node transport and the exchanges
#            that move pieces (BEFORE_BENCH=1: also .ab/before's halo_bench, for benchab)
#   gputest  those GPU tests (ranks that share a GPU run under MPS: scripts/gpu/run_with_mps.sh)
#   bench    halo_bench over node, cubes 200 and 800, resident and stream_notify, the node
#            peers in lines (the default) and not (--node-lines-up-to-bytes 0), one run each in
#            turn, ROUNDS rounds of 1000 exchanges, every exchange verified
#   jacobi   Jacobi3D at 32^3 per rank, 7 and 27 points, resident and conventional_overlap,
#            lines and not, in turn
#   benchab  halo_bench resident over node, cubes 200 and 800: the tree before the lines
#            (.ab/before, built with BEFORE_BENCH=1 in the build step) and this one, in turn
#   links    the table of links (scripts/bench/jacobi_resident_breakdown.sh, setting 0): the tree
#            before the lines (.ab/before, ecf0090, with the 2026-11-28 stamps.patch) and this
#            tree (this folder's stamps.patch) with its peers in lines and not; both copies built
#            first, then run one after the other, LINK_ROUNDS rounds (2)
#   ab       scripts/ab/ab_jacobi_trees.sh before=.ab/before after=. (Jacobi3D, 32^3 per rank)
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
ranked_call 580
nvidia-smi -L > "$o/gpus.txt"; git log -1 --format=%H > "$o/tree.txt" 2>/dev/null
for step in $STEPS; do
  case $step in
    build)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      if [[ ${BEFORE_BENCH:-0} == 1 ]]; then  # the tree before the lines' halo_bench, for benchab
        configure_cuda .ab/before "$root/build-before" "$o/configure_before.log" -DHALOFLAG_BUILD_TESTS=OFF
        cmake --build "$root/build-before" -j 8 --target halo_bench >"$o/build_before.log" 2>&1 &
      fi
      cmake --build "$build" -j 16 --target halo_bench haloflag_jacobi3d halo_node_lines_mpi_test \
        halo_node_placement_mpi_test halo_node_transport_mpi_test halo_embedded_whole_exchange_mpi_test \
        halo_exchange_strategies_mpi_test halo_stream_exchange_mpi_test kernels_node_lines_test \
        halo_fault_injection_mpi_test halo_fault_injection_driver halo_fault_injection_process_test \
        >"$o/build.log" 2>&1 || { grep -B2 -A8 "error" "$o/build.log" | head -60; exit 1; }
      wait
      echo "built: $(left) s left"
      ;;
    gputest)
      in_build "$build" "$o/ctest_gpu.txt" timeout $(( $(left) - 20 )) ctest -L gpu --timeout 150 --output-on-failure \
        -R "${GPU_TESTS:-node_lines|node_placement|node_transport|embedded_whole|strategies|stream_exchange}"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Total Test" "$o/ctest_gpu.txt" | tail -24
      echo "gputest: $(left) s left"
      ;;
    bench)
      mkdir -p "$o/bench"
      for round in $(seq 1 "$rounds"); do
        for cube in 200 800; do
          for strategy in resident stream_notify; do
            for lines in 1048576 0; do
              (( $(left) > 30 )) || break 4
              halo_bench_node "$build/bench/halo_bench" "$o/bench" \
                "${strategy}_${cube}_lines${lines}_r$round" "$cube" "$strategy" \
                --node-lines-up-to-bytes "$lines"
            done
          done
        done
      done
      echo "bench: $(left) s left"
      ;;
    jacobi)
      mkdir -p "$o/jacobi"
      for round in $(seq 1 "$rounds"); do
        for points in 7 27; do
          for lines in 1048576 0; do
            (( $(left) > 30 )) || break 3
            jacobi32_lines "$o/jacobi" "$points" "$lines" "$round"
          done
        done
      done
      echo "jacobi: $(left) s left"
      ;;
    benchab)
      # halo_bench resident over node, the tree before the lines (build-before, BEFORE_BENCH=1 at
      # build) and this one with its defaults, in turn, ROUNDS rounds.
      mkdir -p "$o/benchab"
      for round in $(seq 1 "$rounds"); do
        for cube in 200 800; do
          for tree in before after; do
            (( $(left) > 30 )) || break 3
            program=$build/bench/halo_bench
            [[ $tree == before ]] && program=$root/build-before/bench/halo_bench
            halo_bench_node "$program" "$o/benchab" "${tree}_${cube}_r$round" "$cube" resident
          done
        done
      done
      echo "benchab: $(left) s left"
      ;;
    links)
      links_table "$root/.ab/before" "$root/docs/results/h200/2026-11-29_node_lines/stamps.patch" \
        "lines=;counted=--node-lines-up-to-bytes 0"
      ;;
    ab)
      HALOFLAG_AB_ROUNDS=${AB_ROUNDS:-2} HALOFLAG_AB_LABELS="before=ecf0090" \
        timeout $(( $(left) - 10 )) scripts/ab/ab_jacobi_trees.sh "$o/jacobi_ab" \
        before="$root/.ab/before" after="$root"
      echo "ab: $(left) s left"
      ;;
  esac
done
