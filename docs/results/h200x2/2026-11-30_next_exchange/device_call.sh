#!/usr/bin/env bash
# Session 64's device calls on two H200s, one rank per GPU (repository root on the GPU machine;
# .deps from scripts/stage_offline_deps.sh and .ab carried, .ab/before the tree before the
# caller's kernel told its peers where the next exchange goes, 21a93c7). STEPS lists the steps
# of the call; the build folders are ignored, so a warm machine keeps them between calls.
#   build      this tree's BUILD_TARGETS into build-gpu (both examples, the GPU tests below,
#              halo_bench and the calibration's tools), and the tree before's two examples into
#              build-before, in the background
#   build_after  this tree's BUILD_TARGETS alone, on every core
#   tests      the GPU tests of the whole exchange from the kernel, of the node transport, of
#              faults with the peers in lines, and of both examples against their references,
#              within TEST_SECONDS (150)
#   ab         the resident variants (ab_runs below) of the tree before and of this one in turn,
#              ROUNDS rounds (2), the order swapped every other round
#   told       the same of this tree alone, its finish telling the next exchange
#              (--next-exchange) and each exchange announced at its start (--no-next-exchange;
#              calls 1-4 ran before that flag, when the start form was the default), in turn:
#              the change measured with one build
#   calibrate  scripts/calibrate_machine.sh with the tools of build: the model's parameter file,
#              its node grid term from this tree's default piece grid
#   check      halo_bench over node, the strategies with a node grid, cubes 200, 400 and 800, one
#              round of 300 verified exchanges, the model beside from the new parameter file
#   small2d    jacobi2d at 1024^2 and 4096^2, every variant, scripts/bench/bench_stencils.sh
#              without the peer
#   check_all  every strategy over node and mpi, cubes 200, 400 and 800, one round of 300
#              verified exchanges, the model beside from the shipped parameter file
#              (scripts/bench/bench_node_pieces.sh exchanges)
#   shapes2d   jacobi2d's resident variant at 4096^2, the norm every iteration and every 100,
#              with resident blocks of 128, 256 (the default) and 512 threads
#   blocks2d   jacobi2d's resident variant at 1024^2, the norm every iteration, with grids of
#              as many blocks as fit (the default), 132 and 264, then the default again
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
gpu_tests="embedded_whole|node_lines|node_placement|node_transport|fault_injection"
gpu_tests+="|jacobi2d_reference|jacobi3d_reference"
gpu_tests=${GPU_TESTS:-$gpu_tests}
# BUILD_TARGETS: what build and build_after build of this tree (default: the programs and tests
# above, with the calibration's tools).
build_targets="haloflag_jacobi2d haloflag_jacobi3d jacobi2d_reference_mpi_test"
build_targets+=" jacobi3d_reference_mpi_test halo_node_lines_mpi_test halo_node_placement_mpi_test"
build_targets+=" halo_node_transport_mpi_test halo_embedded_whole_exchange_mpi_test"
build_targets+=" halo_fault_injection_mpi_test halo_fault_injection_driver halo_bench"
build_targets+=" haloflag_calibrate_pingpong haloflag_calibrate_concurrent"
build_targets+=" haloflag_calibrate_bulk_exchange haloflag_calibrate_pack_unpack"
build_targets+=" haloflag_calibrate_node notify_latency haloflag_gen_config"
build_targets+=" haloflag_calibrate_merge haloflag_model_cli"
build_targets=${BUILD_TARGETS:-$build_targets}
# ab_runs JACOBI3D JACOBI2D LABEL [DIR [OPTIONS...]]: the resident variants of both programs
# (Jacobi3D at 32^3 per rank, 7 and 27 points, conventional beside; jacobi2d at 1024^2, the norm
# every iteration and every 100), with OPTIONS, into DIR ($o/ab) as NAME_LABEL.{json,txt}; each
# row on stdout. Fails when the call's time runs short.
ab_runs() {
  local j3=$1 j2=$2 label=$3 dir=${4:-$o/ab}
  shift 3
  (($# > 0)) && shift
  local points nccheck name
  for points in 7 27; do
    (($(left) > 30)) || return 1
    name=j3d32_${points}pt_$label
    timeout 40 "${shared[@]}" mpiexec -n "$ranks" "$j3" --local 32 --stencil "$points" \
      --variant conventional,resident --transport node --iterations 200 --repeats 10 \
      --no-update-rate "$@" --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
    echo "$name: $(grep -E '^ *(conventional|resident) ' "$dir/$name.txt" |
      awk '{printf "%s %s  ", $1, $2}')"
  done
  for nccheck in 1 100; do
    (($(left) > 30)) || return 1
    name=j2d1024_nccheck${nccheck}_$label
    timeout 40 "${shared[@]}" mpiexec -n "$ranks" "$j2" -nx 1024 -ny 1024 -niter 1000 \
      -nccheck "$nccheck" --variant resident --repeats 5 "$@" --json "$dir/$name.json" \
      >"$dir/$name.txt" 2>&1
    echo "$name: $(grep -E '^resident ' "$dir/$name.txt" | head -1)"
  done
}
for step in $STEPS; do
  case $step in
    build)
      build_before_in_background 12 haloflag_jacobi2d haloflag_jacobi3d
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors 24 $build_targets
      echo "built: $(left) s left"
      ;;
    build_after)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors "$(nproc)" $build_targets
      echo "built: $(left) s left"
      ;;
    tests)
      in_build "$build" "$o/ctest_gpu.txt" timeout "${TEST_SECONDS:-150}" ctest -L gpu --timeout 120 \
        --output-on-failure -R "$gpu_tests"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Skipped|Total Test" "$o/ctest_gpu.txt" |
        tail -40
      echo "tested: $(left) s left"
      ;;
    ab)
      wait_for_before
      mkdir -p "$o/ab"
      for round in $(seq 1 "$rounds"); do
        order="before after"
        ((round % 2 == 0)) && order="after before"
        for tree in $order; do
          ab_runs "$(jacobi3d "$tree")" "$(jacobi2d "$tree")" "${tree}_r$round" || break 2
        done
      done
      echo "ab: $(left) s left"
      ;;
    told)
      mkdir -p "$o/told"
      for round in $(seq 1 "$rounds"); do
        order="told start"
        ((round % 2 == 0)) && order="start told"
        for form in $order; do
          flags=(--no-next-exchange)
          [[ $form == told ]] && flags=(--next-exchange)
          ab_runs "$(jacobi3d after)" "$(jacobi2d after)" "${form}_r$round" "$o/told" \
            "${flags[@]}" || break 2
        done
      done
      echo "told: $(left) s left"
      ;;
    calibrate)
      HALOFLAG_BUILD_DIR=$build HALOFLAG_CALIBRATION_SKIP_BUILD=1 timeout $(($(left) - 150)) \
        scripts/calibrate_machine.sh "$o/calibration" >"$o/calibration_log.txt" 2>&1 ||
        { echo "calibration failed or cut"; tail -20 "$o/calibration_log.txt"; }
      tail -5 "$o/calibration_log.txt"
      echo "calibrated: $(left) s left"
      ;;
    check)
      mkdir -p "$o/check"
      for cube in 200 400 800; do
        (($(left) > 40)) || break
        timeout 120 "${shared[@]}" mpiexec -n "$ranks" "$build/bench/halo_bench" \
          --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" --transport node \
          --strategy stream_notify,stacked_notify,resident --tuning fixed --rounds 1 \
          --iterations 300 --progress 0 --timeout 10 --trace-exchanges 0 \
          --params "$o/calibration/params.json" --json "$o/check/halo_bench_$cube.json" \
          >"$o/check/halo_bench_$cube.txt" 2>&1
        echo "cube $cube:"
        grep -E "^(stream_notify|stacked_notify|resident) " "$o/check/halo_bench_$cube.txt"
      done
      echo "checked: $(left) s left"
      ;;
    check_all)
      HALOFLAG_BUILD_DIR=$build HALOFLAG_CUBES="200 400 800" HALOFLAG_ROUNDS=1 \
        timeout $(($(left) - 10)) scripts/bench/bench_node_pieces.sh exchanges "$o/check_all" \
        --timeout 10 --trace-exchanges 0 --iterations 300 \
        --params model/params/nvidia-h200-x2__open-mpi-v4.1.6.json >"$o/check_all.log" 2>&1 ||
        echo "check_all failed or cut"
      grep -hE "^(comb|stream|stacked|resident|nccl)" "$o"/check_all/exchanges/halo_bench_*.txt
      echo "checked all: $(left) s left"
      ;;
    shapes2d)
      mkdir -p "$o/shapes2d"
      for threads in 256 128 512; do
        for nccheck in 1 100; do
          (($(left) > 40)) || break 2
          name=j2d4096_nccheck${nccheck}_threads$threads
          timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$(jacobi2d after)" -nx 4096 -ny 4096 \
            -niter 1000 -nccheck "$nccheck" --variant resident --repeats 5 \
            --gpu-threads "$threads" --json "$o/shapes2d/$name.json" >"$o/shapes2d/$name.txt" 2>&1
          echo "$name: $(grep -E '^resident ' "$o/shapes2d/$name.txt" | head -1)"
        done
      done
      echo "shapes2d: $(left) s left"
      ;;
    blocks2d)
      mkdir -p "$o/blocks2d"
      round=0
      for blocks in 0 132 264 0; do
        (($(left) > 15)) || break
        round=$((round + 1))
        name=j2d1024_nccheck1_blocks${blocks}_$round
        timeout 30 "${shared[@]}" mpiexec -n "$ranks" "$(jacobi2d after)" -nx 1024 -ny 1024 \
          -niter 1000 -nccheck 1 --variant resident --repeats 5 --resident-blocks "$blocks" \
          --json "$o/blocks2d/$name.json" >"$o/blocks2d/$name.txt" 2>&1
        echo "$name: $(grep -E '^resident ' "$o/blocks2d/$name.txt" | head -1)"
      done
      echo "blocks2d: $(left) s left"
      ;;
    small2d)
      SIZES_2D="1024 4096" SIZES_3D=" " HALOFLAG_BUILD_DIR=$build PEER_BUILD="" RANKS=$ranks \
        RUN_LIMIT=100 timeout $(($(left) - 10)) scripts/bench/bench_stencils.sh "$o/small2d"
      echo "small2d: $(left) s left"
      ;;
  esac
done
