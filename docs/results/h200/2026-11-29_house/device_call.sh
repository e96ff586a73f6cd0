#!/usr/bin/env bash
# Session 59's device calls for issue 60, the house (structure only): the tree before it
# (.ab/before, 7a9524f, carried with .deps) against this tree, on the machine lent. STEPS lists
# the steps of the call; build-gpu/ and build-before/ are ignored, so a warm machine keeps them.
#   build    this tree with every test (build-gpu), and the tree before's halo_bench
#            (build-before) beside it
#   gputest  ctest -L gpu of this tree (2-rank jobs share the GPU under MPS where it is one)
#   benchab  halo_bench, both trees in turn, the order turning each round, ROUNDS rounds (3):
#            comb_fused, stream_notify and resident over node and over mpi in one process, cubes
#            200 and 800, 1000 verified exchanges each
#   jacobi   scripts/ab/ab_jacobi_trees.sh before=.ab/before after=. (Jacobi3D 32^3 per rank,
#            7 and 27 points, every variant, JACOBI_ROUNDS rounds (3))
#   stencils the stencil examples and their GPU tests alone, built fresh (after jacobi2d's norm
#            took its bits through __builtin_memcpy for HIP's sake), and one timed jacobi2d run
# RANKS: ranks (2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
ranked_call 580
cards_and_tree

# halo_bench_pair TREE PROGRAM CUBE ROUND: one run of that tree's halo_bench into
# $o/benchab/TREE_CUBE_roundROUND.{json,txt}, as scripts/ab/ab_halo_bench_summary.py reads them;
# its rows on stdout.
halo_bench_pair() {
  local tree=$1 program=$2 cube=$3 round=$4
  local name=${tree}_${cube}_round$round
  timeout 120 "${shared[@]}" mpiexec -n "$ranks" "$program" \
    --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
    --strategy comb_fused,stream_notify,resident --transport node,mpi --tuning fixed \
    --rounds 1 --iterations 1000 --progress 0 --json "$o/benchab/$name.json" \
    >"$o/benchab/$name.txt" 2>&1 || echo "$name failed"
  echo "$name:"
  grep -E "^(comb_fused|stream_notify|resident) " "$o/benchab/$name.txt" | head -6
}

for step in $STEPS; do
  case $step in
    build)
      configure_cuda .ab/before "$root/build-before" "$o/configure_before.log" -DHALOFLAG_BUILD_TESTS=OFF
      cmake --build "$root/build-before" -j 6 --target halo_bench >"$o/build_before.log" 2>&1 &
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      cmake --build "$build" -j 12 >"$o/build.log" 2>&1 ||
        { grep -B2 -A8 "error:" "$o/build.log" | head -60; exit 1; }
      wait
      echo "built: $(left) s left"
      ;;
    gputest)
      b=$build
      gpu_tests_of "${GPU_TESTS:-.}" $(($(left) - 20)) 80
      ;;
    benchab)
      mkdir -p "$o/benchab"
      for round in $(seq 1 "$rounds"); do
        for cube in 200 800; do
          order=(before after)
          ((round % 2 == 0)) && order=(after before)
          for tree in "${order[@]}"; do
            (($(left) > 40)) || break 3
            program=$build/bench/halo_bench
            [[ $tree == before ]] && program=$root/build-before/bench/halo_bench
            halo_bench_pair "$tree" "$program" "$cube" "$round"
          done
        done
      done
      python3 scripts/ab/ab_halo_bench_summary.py "$o/benchab" >"$o/benchab/summary.txt" 2>&1
      cat "$o/benchab/summary.txt"
      echo "benchab: $(left) s left"
      ;;
    stencils)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 16 haloflag_jacobi2d jacobi2d_reference_mpi_test haloflag_jacobi3d \
        jacobi3d_reference_mpi_test
      b=$build
      gpu_tests_of "jacobi" $(($(left) - 60)) 20
      timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$build/examples/jacobi2d/haloflag_jacobi2d" \
        -nx 4096 -ny 4096 -niter 1000 -nccheck 100 --json "$o/jacobi2d_4096.json" \
        >"$o/jacobi2d_4096.txt" 2>&1 || echo "jacobi2d run failed"
      tail -12 "$o/jacobi2d_4096.txt"
      ;;
    jacobi)
      jacobi_ab_within "${JACOBI_ROUNDS:-3}" 7a9524f 15
      cat "$o/jab/summary.md" 2>/dev/null
      echo "jacobi: $(left) s left"
      ;;
  esac
done
