#!/usr/bin/env bash
# Session 63's device calls on two H200s, one rank per GPU (repository root on the GPU machine;
# .deps from scripts/stage_offline_deps.sh and .ab carried, .ab/before the tree before the node
# transport's lines, ecf0090). STEPS lists the steps of the call; the build folders are ignored,
# so a warm machine keeps them between calls.
#   build   this tree with its tests into build-gpu: halo_bench, both examples and the GPU tests
#           below
#   tests   the GPU tests of the node transport, of the strategies that move pieces, of the
#           stream-ordered exchange and the resident kernels' coexistence, of the piece grid's
#           room, of faults with the peers in lines, and of both examples against their
#           references
#   jabbuild  both trees of the A/B below built in the background (while the tests run)
#   jab     scripts/ab/ab_jacobi_trees.sh: Jacobi3D of .ab/before (ecf0090) against this tree,
#           ROUNDS rounds (2); skipped, saying so, when jabbuild's builds are not done a minute
#           before the call's end (in call 5 they were not: the A/B ran as jab32)
#   jab32   Jacobi3D at 32^3 per rank, conventional and resident, 7 and 27 points: the before
#           tree's program (jabbuild's) and this tree's (build) in turn, ROUNDS rounds
#   small2d jacobi2d at 1024^2 and 4096^2, every variant, scripts/bench/bench_stencils.sh
#           without the peer
#   room    halo_bench resident over node at cubes 200 and 800: the piece grid by default (half
#           the room the resident pack and unpack grids leave) and with --node-blocks set to the
#           whole room (the count a refused --node-blocks names), in turn, ROUNDS rounds (2)
#   wave    jacobi2d at 16384^2 (the norm every iteration and every 100), every variant,
#           scripts/bench/bench_stencils.sh without the peer: its update launches more than one
#           wave of blocks there
#   grid3d  Jacobi3D at 256^3 per rank, 7 and 27 points, conventional_overlap and stream, the
#           stream variant's piece grid at its default and at 132 and 66 blocks, in turn
#   links   the table of links on two GPUs (scripts/bench/jacobi_resident_breakdown.sh, setting
#           0): .ab/before with its 2026-11-28 stamps.patch and this tree with the two_gpus
#           stamps.patch, its peers in lines and not; LINK_ROUNDS rounds (2)
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
# GPU_TESTS: the tests step's ctest regex (default: the list below).
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
before_after_call
build=${builds[after]}
ranks=${RANKS:-2}
mps_when_shared "$ranks"
cards_and_tree
gpu_tests="node_lines|node_placement|node_transport|node_piece_grid_room|embedded_whole"
gpu_tests+="|strategies|stream_exchange|resident_coexistence|jacobi2d_reference|jacobi3d_reference"
gpu_tests=${GPU_TESTS:-$gpu_tests}
before_copy=$root/build-source-before  # a copy of .ab/before, so that the A/B keeps its build
ab_jacobi() {  # the A/B script on both trees, its output into $o/jab and $o/jab_log.txt
  HALOFLAG_AB_ROUNDS=$rounds HALOFLAG_AB_LABELS="before=$(cat .ab/before/TREE)" \
    scripts/ab/ab_jacobi_trees.sh "$o/jab" before="$before_copy" after="$root"
}
declare -A programs
for step in $STEPS; do
  case $step in
    build)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 16 halo_bench haloflag_jacobi2d haloflag_jacobi3d jacobi2d_reference_mpi_test \
        jacobi3d_reference_mpi_test halo_node_lines_mpi_test halo_node_placement_mpi_test \
        halo_node_transport_mpi_test halo_node_piece_grid_room_mpi_test \
        halo_embedded_whole_exchange_mpi_test halo_exchange_strategies_mpi_test \
        halo_stream_exchange_mpi_test kernels_node_lines_test halo_resident_coexistence_mpi_test \
        halo_fault_injection_mpi_test
      echo "built: $(left) s left"
      ;;
    tests)
      in_build "$build" "$o/ctest_gpu.txt" timeout $(($(left) - 10)) ctest -L gpu --timeout 120 \
        --output-on-failure -R "$gpu_tests"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Skipped|Total Test" "$o/ctest_gpu.txt" |
        tail -40
      echo "tested: $(left) s left"
      ;;
    room)
      mkdir -p "$o/room"
      halo_bench_node "$build/bench/halo_bench" "$o/room" refused 800 resident --node-blocks 100000
      whole=$(grep -o "has room for [0-9]*" "$o/room/refused.txt" | head -1 | grep -o "[0-9]*$")
      echo "whole room: ${whole:-not found}"
      [[ -n $whole ]] || continue
      for round in $(seq 1 "$rounds"); do
        for cube in 200 800; do
          for blocks in 0 "$whole"; do
            (($(left) > 40)) || break 3
            halo_bench_node "$build/bench/halo_bench" "$o/room" \
              "resident_${cube}_blocks${blocks}_r$round" "$cube" resident --node-blocks "$blocks"
          done
        done
      done
      echo "room: $(left) s left"
      ;;
    jabbuild)
      [[ -d $before_copy ]] || cp -r .ab/before "$before_copy"
      HALOFLAG_AB_BUILD_ONLY=1 ab_jacobi >"$o/jab_build_log.txt" 2>&1 &
      ;;
    jab)
      [[ -d $before_copy ]] || cp -r .ab/before "$before_copy"
      while [[ -n $(jobs -r) ]]; do  # jabbuild's builds, when it ran
        (($(left) > 60)) || { echo "jab: the builds are not done; skipped"; continue 2; }
        sleep 5
      done
      o=$o rounds=$rounds before_copy=$before_copy root=$root timeout $(($(left) - 10)) \
        bash -c "$(declare -f ab_jacobi); ab_jacobi" \
        >"$o/jab_log.txt" 2>&1 || { echo "A/B failed or cut"; tail -20 "$o/jab_log.txt"; }
      cat "$o/jab/summary.md" 2>/dev/null
      echo "jab: $(left) s left"
      ;;
    jab32)
      mkdir -p "$o/jab32"
      programs=([before]=$before_copy/build-ab-before/examples/jacobi3d/haloflag_jacobi3d
        [after]=$build/examples/jacobi3d/haloflag_jacobi3d)
      for round in $(seq 1 "$rounds"); do
        for points in 7 27; do
          for tree in before after; do
            name=${tree}_${points}_r$round
            timeout 30 "${shared[@]}" mpiexec -n "$ranks" "${programs[$tree]}" --local 32 \
              --stencil "$points" --variant conventional,resident --transport node \
              --iterations 200 --repeats 10 --no-update-rate --json "$o/jab32/$name.json" \
              >"$o/jab32/$name.txt" 2>&1
            echo "$name: $(grep -E '^ *(conventional|resident) ' "$o/jab32/$name.txt" |
              awk '{printf "%s %s  ", $1, $2}')"
          done
        done
      done
      ;;
    small2d)
      SIZES_2D="1024 4096" SIZES_3D=" " HALOFLAG_BUILD_DIR=$build PEER_BUILD="" RANKS=$ranks \
        RUN_LIMIT=100 timeout $(($(left) - 10)) scripts/bench/bench_stencils.sh "$o/small2d"
      echo "small2d: $(left) s left"
      ;;
    wave)
      SIZES_2D=16384 SIZES_3D=" " HALOFLAG_BUILD_DIR=$build PEER_BUILD="" RANKS=$ranks \
        RUN_LIMIT=100 timeout $(($(left) - 10)) scripts/bench/bench_stencils.sh "$o/wave"
      echo "wave: $(left) s left"
      ;;
    grid3d)
      mkdir -p "$o/grid3d"
      for points in 7 27; do
        for blocks in 0 132 66; do
          (($(left) > 40)) || break 2
          name=j256_${points}pt_blocks$blocks
          timeout 90 "${shared[@]}" mpiexec -n "$ranks" "$build/examples/jacobi3d/haloflag_jacobi3d" \
            --variant conventional_overlap,stream --stencil "$points" --local 256 \
            --transport node --iterations 50 --repeats 10 --node-blocks "$blocks" \
            --json "$o/grid3d/$name.json" >"$o/grid3d/$name.txt" 2>&1
          echo "$name:"
          grep -E "^ *(conventional_overlap|stream) " "$o/grid3d/$name.txt" | head -2
        done
      done
      echo "grid3d: $(left) s left"
      ;;
    links)
      links_table "$root/.ab/before" \
        "$root/docs/results/h200x2/2026-11-29_two_gpus/stamps.patch" \
        "lines=--node-lines-up-to-bytes 1048576;counted="
      ;;
  esac
done
