#!/usr/bin/env bash
# The device calls of the column updates (repository root on the GPU machine; .deps from
# scripts/stage_offline_deps.sh carried, and .ab/before: the tree before them, without
# docs/results). STEPS lists the steps of the call; build-gpu/ and build-before/ are ignored and
# outside what is carried, so a warm machine keeps them between calls.
#   build   this tree (tests on) and the tree before (tests off), both examples; the GPU tests of
#           both examples on this tree
#   before  the tree before alone (a call's carried .ab replaces the folder it was built in)
#   rates   one rank on one GPU, both trees in turn over ROUNDS rounds (2): Jacobi3D at 128^3 and
#           256^3 cells, 7 and 27 points, and jacobi2d at 16384 x 8193 and 4096 x 2049 cells
#           (each rank's plane of a 2-rank run of 16384^2 and 4096^2) with the norm every 100
#           iterations, every variant with its update alone against the copy rate
#   final3d Jacobi3D of this tree built again in build-gpu (after a change to its update), then
#           both trees as in rates and mps, one round, Jacobi3D only
#   mps     both trees, two ranks sharing the one GPU under MPS (a proxy for two GPUs): Jacobi3D at
#           32^3 and 128^3 per rank, both stencils
set -uo pipefail
# shellcheck shell=bash source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
before_after_call
# rate3d DIR NAME TREE LOCAL STENCIL ITERATIONS: one rank's Jacobi3D, every variant, into
# DIR/NAME.{json,txt}; each variant's update alone on stdout.
rate3d() {
  local dir=$1 name=$2 tree=$3 cells=$4 stencil=$5 iterations=$6
  timeout 60 mpiexec -n 1 "$(jacobi3d "$tree")" --local "$cells" --stencil "$stencil" \
    --variant all --iterations "$iterations" --repeats 5 \
    --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
  echo "$name: $(grep -A5 '^update alone' "$dir/$name.txt" | grep -E '%$' |
    awk '{printf "%s %s %s; ", $1, $2, $5}')"
}
# rates3d DIR ROUND: rate3d of both trees in turn at 128^3 and 256^3, 7 and 27 points; stops when
# less than 30 s are left.
rates3d() {
  local shape cells stencil iterations tree
  for shape in "128 7 200" "128 27 200" "256 7 50" "256 27 50"; do
    read -r cells stencil iterations <<<"$shape"
    for tree in before after; do
      (($(left) > 30)) || return 0
      rate3d "$1" "jacobi3d_${cells}_${stencil}_${tree}_r$2" "$tree" "$cells" "$stencil" \
        "$iterations"
    done
  done
}
# shared3d DIR NAME TREE LOCAL STENCIL: two ranks' Jacobi3D on the one GPU under MPS, every variant,
# into DIR/NAME.{json,txt}; each variant's iteration on stdout.
shared3d() {
  local dir=$1 name=$2 tree=$3 cells=$4 stencil=$5
  timeout 60 scripts/gpu/run_with_mps.sh 2 mpiexec -n 2 "$(jacobi3d "$tree")" \
    --local "$cells" --stencil "$stencil" --variant all --iterations 200 --repeats 5 \
    --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
  echo "$name: $(grep -E '^(conventional|conventional_overlap|resident|stream) ' "$dir/$name.txt" |
    head -4 | awk '{printf "%s %s; ", $1, $2}')"
}
for step in $STEPS; do
  case $step in
    build)
      cards_and_tree
      echo "before: $(cat .ab/before/TREE 2>/dev/null || echo '(named in the README)')"
      configure_cuda . "${builds[after]}" "$o/configure_after.log" -DHALOFLAG_BUILD_TESTS=ON ||
        { tail -30 "$o/configure_after.log"; exit 1; }
      configure_cuda .ab/before "${builds[before]}" "$o/configure_before.log" \
        -DHALOFLAG_BUILD_TESTS=OFF || { tail -30 "$o/configure_before.log"; exit 1; }
      cmake --build "${builds[before]}" -j 6 --target haloflag_jacobi2d haloflag_jacobi3d \
        >"$o/build_before.log" 2>&1 &
      cmake --build "${builds[after]}" -j 10 --target haloflag_jacobi2d haloflag_jacobi3d \
        jacobi2d_reference_mpi_test jacobi3d_reference_mpi_test jacobi3d_decomposition_test \
        >"$o/build_after.log" 2>&1 ||
        { grep -B2 -A8 "error:" "$o/build_after.log" | head -60; exit 1; }
      wait || { grep -B2 -A8 "error:" "$o/build_before.log" | head -60; exit 1; }
      echo "built: $(left) s left"
      in_build "${builds[after]}" "$o/ctest_gpu.txt" timeout $(($(left) - 20)) ctest \
        -L gpu --timeout 200 --output-on-failure -R "jacobi"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Total Test" "$o/ctest_gpu.txt" | tail -40
      echo "tested: $(left) s left"
      ;;
    before)
      configure_cuda .ab/before "${builds[before]}" "$o/configure_before.log" \
        -DHALOFLAG_BUILD_TESTS=OFF || { tail -30 "$o/configure_before.log"; exit 1; }
      cmake --build "${builds[before]}" -j 16 --target haloflag_jacobi2d haloflag_jacobi3d \
        >"$o/build_before.log" 2>&1 ||
        { grep -B2 -A8 "error:" "$o/build_before.log" | head -60; exit 1; }
      echo "built before: $(left) s left"
      ;;
    rates)
      cards_and_tree
      mkdir -p "$o/rates"
      for ((r = 1; r <= rounds; r++)); do
        rates3d "$o/rates" "$r"
        for shape in "16384 8193" "4096 2049"; do
          read -r nx ny <<<"$shape"
          for tree in before after; do
            (($(left) > 40)) || break 3
            name=jacobi2d_${nx}x${ny}_${tree}_r$r
            timeout 90 mpiexec -n 1 "$(jacobi2d $tree)" -nx "$nx" -ny "$ny" -niter 1000 \
              -nccheck 100 --repeats 3 --json "$o/rates/$name.json" >"$o/rates/$name.txt" 2>&1
            echo "$name:"
            grep -E "^(copy|conventional_overlap|stream|resident) " "$o/rates/$name.txt"
          done
        done
      done
      echo "rates: $(left) s left"
      ;;
    final3d)
      cmake --build "${builds[after]}" -j 16 --target haloflag_jacobi3d \
        >"$o/build_final3d.log" 2>&1 ||
        { grep -B2 -A8 "error:" "$o/build_final3d.log" | head -60; exit 1; }
      echo "built: $(left) s left"
      mkdir -p "$o/final3d"
      rates3d "$o/final3d" 1
      for shape in "32 7" "128 7"; do
        read -r local stencil <<<"$shape"
        for tree in before after; do
          (($(left) > 15)) || break 2
          shared3d "$o/final3d" "mps_jacobi3d_${local}_${stencil}_${tree}_r1" "$tree" "$local" \
            "$stencil"
        done
      done
      echo "final3d: $(left) s left"
      ;;
    mps)
      cards_and_tree
      mkdir -p "$o/mps"
      for ((r = 1; r <= rounds; r++)); do
        for shape in "32 7" "32 27" "128 7" "128 27"; do
          read -r local stencil <<<"$shape"
          for tree in before after; do
            (($(left) > 30)) || break 3
            shared3d "$o/mps" "jacobi3d_${local}_${stencil}_${tree}_r$r" "$tree" "$local" "$stencil"
          done
        done
      done
      echo "mps: $(left) s left"
      ;;
  esac
done
