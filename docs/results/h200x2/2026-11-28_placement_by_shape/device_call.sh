#!/usr/bin/env bash
# Session 54's device calls (run from the repository root on the GPU machine, .deps carried).
# STEP=call1: build, GPU tests of what changed, then the placement sweep: halo_bench over node
#   at cubes 200, 400, 800 with --node-placement direct and by-shape (x faces through the buffer).
# STEP=call2: the headline (scripts/bench/bench_headline.sh) + Jacobi3D A/B against .ab/before.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
step_call 585
sweep() {  # cube placement-args... ; halo_bench over node, 4 strategies
  local cube=$1 tag=$2; shift 2
  (( $(left) > 45 )) || { echo "no time for $cube $tag"; return; }
  timeout $(( $(left) - 10 )) mpiexec -n 2 "$b/bench/halo_bench" \
    --config comb_configs/comb_${cube}_np2_reduced.cfg \
    --strategy resident,stream_notify,stacked_notify,comb_fused --transport node \
    --rounds ${ROUNDS:-2} --iterations ${ITER:-200} --verify 1 --progress 0 "$@" \
    --json "$o/sweep_${cube}_${tag}.json" >"$o/sweep_${cube}_${tag}.txt" 2>&1 ||
    echo "halo_bench $cube $tag failed or cut (exit $?)"
  echo "== cube $cube $tag ($(left) s left)"
  grep -E '^(strategy|comb_fused|stream_notify|stacked_notify|resident) ' "$o/sweep_${cube}_${tag}.txt" | head -6
  grep -m1 "^peers of rank 0" "$o/sweep_${cube}_${tag}.txt" | cut -c1-220
}
case $STEP in
  call1)
    build_into build-s54 -DHALOFLAG_PYTHON=OFF
    gpu_tests_of "${TESTS:-node_placement|embedded_whole|strategies_cuda_np2|element_types_cuda_np2|jacobi3d_reference_np2|embedding}" \
      $(( $(left) - 300 )) 30
    HALOFLAG_BUILD_DIR=$b HALOFLAG_PLACEMENTS="${PLACEMENTS:-direct by-shape:50000}" \
      HALOFLAG_CUBES="${CUBES:-800 200 400}" timeout $(( $(left) - 8 )) \
      scripts/bench/bench_node_placement.sh "$o/sweep" >"$o/sweep_log.txt" 2>&1 ||
      { echo "sweep failed or cut"; tail -5 "$o/sweep_log.txt"; }
    grep -E "^(\$ |\| (resident|stream|stacked|comb)|^strategy)" "$o/sweep_log.txt" | cut -c1-200 | head -60
    for st in 7 27; do
      (( $(left) > 40 )) || break
      jacobi_variants "$b" "$o" $st 35
      grep -E "^(conventional|resident|stream) " "$o/jacobi_s$st.txt" | head -6
    done
    ;;
  call3)
    build_into build-s54 -DHALOFLAG_NCCL=on -DHALOFLAG_PYTHON=OFF
    (cd "$b" && timeout 150 ctest -L gpu --timeout 100 --output-on-failure -R "$TESTS") \
      >"$o/ctest_gpu.txt" 2>&1
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$o/ctest_gpu.txt" | tail -30
    echo "tested: $(left) s left"
    HALOFLAG_BUILD_DIR=$b HALOFLAG_ROUNDS=${HROUNDS:-2} HALOFLAG_ITERATIONS=200 \
      timeout $(( $(left) - 8 )) scripts/bench/bench_headline.sh "$o/headline" \
      >"$o/headline_log.txt" 2>&1 || { echo "headline failed or cut"; tail -20 "$o/headline_log.txt"; }
    cat "$o/headline/headline.md" 2>/dev/null | head -40
    ;;
  call5)
    build_into build-s54 -DHALOFLAG_NCCL=on -DHALOFLAG_PYTHON=OFF
    in_build "$b" "$o/ctest_gpu_all.txt" timeout $(( $(left) - 10 )) ctest -L gpu --timeout 120 -E "${SKIP:-^$}"
    echo "ctest rc=$?"
    grep -E "tests passed|\*\*\*|Failed|Not Run|Total Test" "$o/ctest_gpu_all.txt" | tail -30
    grep -cE "Passed|Skipped" "$o/ctest_gpu_all.txt"
    ;;
  call4)
    jacobi_ab_within "${ROUNDS:-2}" 7cbd120 10
    cat "$o/jab/summary.md" 2>/dev/null
    ;;
  call2)
    HALOFLAG_BUILD_DIR=$root/build-headline HALOFLAG_ROUNDS=${HROUNDS:-2} HALOFLAG_ITERATIONS=200 \
      timeout $(( $(left) - ${AB_TIME:-250} )) scripts/bench/bench_headline.sh "$o/headline" \
      >"$o/headline_log.txt" 2>&1 || { echo "headline failed or cut"; tail -20 "$o/headline_log.txt"; }
    cat "$o/headline/headline.md" 2>/dev/null | head -40
    echo "headline: $(left) s left"
    jacobi_ab_within "${ROUNDS:-1}" 7cbd120 10
    cat "$o/jab/summary.md" 2>/dev/null
    ;;
esac
echo "end: $(left) s left"
