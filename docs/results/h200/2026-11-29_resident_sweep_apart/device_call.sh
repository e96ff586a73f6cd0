#!/usr/bin/env bash
# The device calls of the resident kernel's interior sweep as a call of its own (repository root
# on the GPU machine; .deps from scripts/stage_offline_deps.sh carried, and .ab/before: the tree
# before, without docs/results). STEPS lists the steps of the call; build-gpu/ and build-before/
# are ignored and outside what is carried, so a warm machine keeps them between calls.
#   build  this tree, every target with its tests, and Jacobi3D of the tree before; every GPU test
#          of this tree (ctest -L gpu)
#   build3d  Jacobi3D alone of both trees (this tree's with its tests) and Jacobi3D's GPU tests
#   faults   this tree's fault-injection targets (tests on) and their GPU tests (ctest -L gpu)
#   rates  one rank on one GPU, both trees in turn over ROUNDS rounds (2): Jacobi3D at 128^3 and
#          256^3 cells, 7 and 27 points, every variant with its update alone against the copy rate
#   mps    both trees, two ranks sharing the one GPU under MPS (a proxy for two GPUs): Jacobi3D at
#          32^3 and 128^3 per rank, both stencils, ROUNDS rounds
set -uo pipefail
# shellcheck shell=bash source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
before_after_call
# run3d DIR NAME TREE ITERATIONS LAUNCHER... -- ARGS...: Jacobi3D of TREE, every variant, into
# DIR/NAME.{json,txt}.
run3d() {
  local dir=$1 name=$2 tree=$3 iterations=$4
  shift 4
  timeout 60 "$@" "$(jacobi3d "$tree")" "${jacobi_args[@]}" --variant all \
    --iterations "$iterations" --repeats 5 --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
}
for step in $STEPS; do
  case $step in
    build)
      cards_and_tree
      build_before_in_background 4 haloflag_jacobi3d
      b=${builds[after]}
      build_everything "$b" "$o/configure.log" "$o/build.log" 30
      wait_for_before
      echo "built: $(left) s left"
      gpu_tests_of . $(($(left) - 15)) 80
      ;;
    build3d)
      cards_and_tree
      build_before_in_background 6 haloflag_jacobi3d
      build=${builds[after]} b=${builds[after]}
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 10 haloflag_jacobi3d jacobi3d_reference_mpi_test jacobi3d_decomposition_test
      wait_for_before
      echo "built: $(left) s left"
      gpu_tests_of jacobi3d 60 10
      ;;
    faults)
      cards_and_tree
      build=${builds[after]} b=${builds[after]}
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 16 halo_fault_injection_mpi_test halo_fault_injection_process_test \
        halo_fault_injection_driver
      gpu_tests_of fault_injection 200 25
      ;;
    rates)
      cards_and_tree
      mkdir -p "$o/rates"
      for ((r = 1; r <= rounds; r++)); do
        for shape in "128 7 200" "128 27 200" "256 7 50" "256 27 50"; do
          read -r cells stencil iterations <<<"$shape"
          jacobi_args=(--local "$cells" --stencil "$stencil")
          for tree in before after; do
            (($(left) > 30)) || break 3
            name=jacobi3d_${cells}_${stencil}_${tree}_r$r
            run3d "$o/rates" "$name" "$tree" "$iterations" mpiexec -n 1
            echo "$name: $(grep -A5 '^update alone' "$o/rates/$name.txt" | grep -E '%$' |
              awk '{printf "%s %s %s; ", $1, $2, $5}')"
          done
        done
      done
      echo "rates: $(left) s left"
      ;;
    mps)
      cards_and_tree
      mkdir -p "$o/mps"
      for ((r = 1; r <= rounds; r++)); do
        for shape in "32 7" "32 27" "128 7" "128 27"; do
          read -r cells stencil <<<"$shape"
          jacobi_args=(--local "$cells" --stencil "$stencil")
          for tree in before after; do
            (($(left) > 30)) || break 3
            name=jacobi3d_${cells}_${stencil}_${tree}_r$r
            run3d "$o/mps" "$name" "$tree" 200 scripts/gpu/run_with_mps.sh 2 mpiexec -n 2
            echo "$name: $(grep -E '^(conventional|conventional_overlap|resident|stream) ' \
              "$o/mps/$name.txt" | head -4 | awk '{printf "%s %s; ", $1, $2}')"
          done
        done
      done
      echo "mps: $(left) s left"
      ;;
  esac
done
