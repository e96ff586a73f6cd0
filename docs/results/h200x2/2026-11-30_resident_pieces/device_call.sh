#!/usr/bin/env bash
# Session 68's device call on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; the build
# folder is ignored, so a warm machine keeps it between calls.
#   build_after  this tree's BUILD_TARGETS (default: Jacobi3D and its reference test) into
#              build-gpu, every core
#   tests      the GPU tests of Jacobi3D against its reference (GPU_TESTS, a ctest regex, widens
#              or narrows them), within TEST_SECONDS (150)
#   ab         the tree before (.ab/before, its TREE file naming the commit; built into
#              build-before in the background, tests off) against this tree (build_after first):
#              Jacobi3D at SIZES_3D cells per rank, 7 and 27 points, the resident variant beside
#              the overlapped conventional loop, the two programs' order swapped every other
#              round, ROUNDS rounds (2); the rows into ab/summary.txt
#   threads    Jacobi3D at FORM_SIZES cells per rank (256 128), 7 and 27 points, the resident
#              variant beside the overlapped conventional loop with blocks of each of THREADS
#              (256 512 1024) threads (--gpu-threads; the resident grid keeps its default size
#              for them), their order rotated every round, ROUNDS rounds (2); the rows into
#              threads/summary.txt
#   pieces     the same (FORM_SIZES 256 128 32) with the stream variant too, for each node piece
#              size of PIECES (4096 8192 16384 bytes, --node-piece-bytes; 0: the resident
#              variant's rule); pieces/summary.txt
#   queue      (interior_queue.patch applied to the tree first) Jacobi3D at SIZES_3D cells per
#              rank (256 128 64 32), 7 and 27 points: the resident variant with the interior
#              taken from the shared count and with the fixed split, each run beside both
#              conventional loops, the two runs' order swapped every other round, ROUNDS rounds
#              (2); each run prints the update alone against the copy rate; queue/summary.txt
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi3d jacobi3d_reference_mpi_test}"

# forms_step STEP OPTION TAG VALUE...: jacobi3d_run (scripts/device/device_call_common.sh) at
# FORM_SIZES, 7 and 27 points, once per VALUE of OPTION (named TAG<value>), the values' order
# rotated every round, ROUNDS rounds (2).
forms_step() {
  local step=$1 option=$2 tag=$3
  shift 3
  local values=("$@")
  mkdir -p "$o/$step"
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for local in $FORM_SIZES; do
      iterations=$((local >= 256 ? 50 : 200))
      for points in 7 27; do
        for value in "${values[@]}"; do
          jacobi3d_run "$step" "j3d${local}_${points}pt_${tag}${value}_r$round" --local "$local" \
            --stencil "$points" --iterations "$iterations" "$option" "$value" || return 1
        done
      done
    done
    values=("${values[@]:1}" "${values[0]}")
  done
}

for step in $STEPS; do
  case $step in
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    ab)
      mkdir -p "$o/ab"
      build_before_in_background "$(($(nproc) / 2))" haloflag_jacobi3d
      build_this_tree "${build_targets[@]}"
      wait_for_before
      echo "before built: $(left) s left"
      for round in $(seq 1 "${ROUNDS:-2}"); do
        trees=(before after)
        ((round % 2 == 0)) && trees=(after before)
        for local in ${SIZES_3D:-256 128 32}; do
          iterations=$((local >= 256 ? 50 : 200))
          for points in 7 27; do
            for tree in "${trees[@]}"; do
              TREE=$tree jacobi3d_run ab "j3d${local}_${points}pt_${tree}_r$round" \
                --local "$local" --stencil "$points" --iterations "$iterations" || break 4
            done
          done
        done
      done
      echo "ab: $(left) s left"
      ;;
    threads)
      # shellcheck disable=SC2086  # the lists split on purpose
      FORM_SIZES=${FORM_SIZES:-256 128} forms_step threads --gpu-threads t ${THREADS:-256 512 1024}
      echo "threads: $(left) s left"
      ;;
    pieces)
      # shellcheck disable=SC2086
      FORM_SIZES=${FORM_SIZES:-256 128 32} VARIANTS=conventional_overlap,resident,stream \
        forms_step pieces --node-piece-bytes p ${PIECES:-4096 8192 16384}
      echo "pieces: $(left) s left"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-jacobi3d_reference} stencil_gpu_tests
      ;;
    queue)
      VARIANTS=conventional,conventional_overlap,resident \
        jacobi3d_two_forms queue --interior-queue --no-interior-queue
      echo "queue: $(left) s left"
      ;;
  esac
done
