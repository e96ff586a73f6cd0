#!/usr/bin/env bash
# Session 70's device call on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; the build
# folder is ignored, so a warm machine keeps it between calls.
#   build_after  this tree's BUILD_TARGETS (default: Jacobi3D and its reference test) into
#              build-gpu, every core
#   tests      the GPU tests of Jacobi3D against its reference (GPU_TESTS, a ctest regex, widens
#              or narrows them), within TEST_SECONDS (150)
#   counter    Jacobi3D at SIZES_3D cells per rank (256 128 64 32), 7 and 27 points: the resident
#              variant whose blocks take the interior past their own share from a counter
#              (--interior-by-counter, the default) and the one that deals it out by block
#              (--no-interior-by-counter), every other choice the default, each run beside both
#              conventional loops, the two runs' order swapped every other round, ROUNDS rounds
#              (2); checked against the single-rank reference up to 64^3; counter/summary.txt
#   sends      the same with the counter, the sends updating the boundary cells they send
#              (--sends-update on) against the boundary first (off), at SENDS_SIZES (256 128);
#              sends/summary.txt
#   pieces     the counter and the sends updating, node pieces of 2048 against 4096 bytes, at
#              PIECE_SIZES (128 64), 7 and 27 points, ROUNDS rounds; pieces/summary.txt
#   ab         Jacobi3D's A/B of the tree before (.ab/before, a copy of BEFORE, d66914f: before
#              session 69) against this tree (scripts/ab/ab_jacobi_trees.sh, 32^3 per rank, 7 and
#              27 points, AB_ROUNDS rounds, 3), both built first side by side into the folders
#              the A/B script builds in, so that its own builds find them done; jab/summary.md
#   final      this tree's defaults (the A/B's build) at FINAL_SIZES (256 128), 7 and 27 points,
#              every variant but NVIDIA's; final/summary.txt
#   trees_build  the tree before (.ab/before, a copy of the commit before the change measured)
#              into build-before and this tree into build-gpu, tests off, side by side
#   trees      Jacobi3D at SIZES_3D (256 128 64 32), 7 and 27 points, the tree before and this
#              tree in turn (their order swapped every other round), ROUNDS rounds (2), each run
#              beside both conventional loops, checked up to 64^3; trees/summary.txt
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi3d jacobi3d_reference_mpi_test}"
# Every run of the steps below: both conventional loops beside the resident variant.
VARIANTS=conventional,conventional_overlap,resident

for step in $STEPS; do
  case $step in
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-jacobi3d_reference} stencil_gpu_tests
      ;;
    counter)
      SIZES_3D=${SIZES_3D:-256 128 64 32} CHECK_UP_TO=64 \
        jacobi3d_two_forms counter --interior-by-counter --no-interior-by-counter
      echo "counter: $(left) s left"
      ;;
    sends)
      SIZES_3D=${SENDS_SIZES:-256 128} CHECK_UP_TO=64 \
        jacobi3d_two_forms sends --sends-update=on --sends-update=off
      echo "sends: $(left) s left"
      ;;
    pieces)
      SIZES_3D=${PIECE_SIZES:-128 64} CHECK_UP_TO=0 \
        jacobi3d_two_forms pieces --node-piece-bytes=2048 --node-piece-bytes=4096
      echo "pieces: $(left) s left"
      ;;
    ab)
      ab_args=(-DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=OFF
        -DCMAKE_PREFIX_PATH="$root/.deps/root/usr")
      for tree in before after; do
        source_dir=$root
        [[ $tree == before ]] && source_dir=$root/.ab/before
        { cmake -S "$source_dir" -B "$source_dir/build-ab-$tree" "${ab_args[@]}" &&
          cmake --build "$source_dir/build-ab-$tree" -j $(($(nproc) / 2)) \
            --target haloflag_jacobi3d; } >"$o/prebuild_$tree.log" 2>&1 &
      done
      wait
      echo "both built: $(left) s left"
      jacobi_ab_within "${AB_ROUNDS:-3}" "${BEFORE:-d66914f}" 60
      cat "$o/jab/summary.md" 2>/dev/null
      echo "ab: $(left) s left"
      ;;
    trees_build)
      for tree in before after; do
        source_dir=$root
        [[ $tree == before ]] && source_dir=$root/.ab/before
        { configure_cuda "$source_dir" "${builds[$tree]}" "$o/configure_$tree.log" \
          -DHALOFLAG_BUILD_TESTS=OFF &&
          cmake --build "${builds[$tree]}" -j $(($(nproc) / 2)) --target haloflag_jacobi3d; } \
          >"$o/build_$tree.log" 2>&1 &
      done
      wait
      echo "trees built: $(left) s left"
      ;;
    trees)
      jacobi3d_trees trees "${SIZES_3D:-256 128 64 32}"
      echo "trees: $(left) s left"
      ;;
    final)
      builds[ab_after]=$root/build-ab-after
      mkdir -p "$o/final"
      for local in ${FINAL_SIZES:-256 128}; do
        for points in 7 27; do
          TREE=ab_after VARIANTS=conventional,conventional_overlap,resident,stream \
            jacobi3d_run final "j3d${local}_${points}pt" --local "$local" --stencil "$points" \
            --iterations $((local >= 256 ? 50 : 200)) || break 2
        done
      done
      echo "final: $(left) s left"
      ;;
  esac
done
