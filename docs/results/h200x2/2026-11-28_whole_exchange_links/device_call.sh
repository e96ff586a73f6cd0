#!/usr/bin/env bash
# Session 55's device calls (repository root on the GPU machine, .deps and .ab carried).
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
step_call 585
b=$root/build-s55
# patched_copy PATCH: a copy of this tree in /tmp/bdtree with the measurement-only PATCH applied.
patched_copy() {
  rm -rf /tmp/bdtree && mkdir -p /tmp/bdtree
  tar -C "$root" --exclude='./build*' --exclude=./.deps --exclude=./.ab --exclude=./.git -cf - . | tar -x -C /tmp/bdtree
  patch -d /tmp/bdtree -p1 <"$1" >"$o/patch.log" || { cat "$o/patch.log"; exit 1; }
}
breakdown() {  # tree dir (with the stamps patch applied there), label
  local src=$1 tag=$2 bd=$1/build-bd
  configure_cuda "$src" "$bd" "$o/bd_configure_$tag.log" -DHALOFLAG_BUILD_TESTS=OFF -DHALOFLAG_PYTHON=OFF
  cmake --build "$bd" -j "$(nproc)" --target haloflag_jacobi3d >"$o/bd_build_$tag.log" 2>&1 ||
    { tail -30 "$o/bd_build_$tag.log"; return; }
  echo "bd built $tag: $(left) s left"
  for round in $(seq 1 ${BD_ROUNDS:-2}); do
    for st in 7 27; do
      for x in ${EXPS:-0 6 8 9}; do
        (( $(left) > 20 )) || return
        echo "== $tag round $round stencil $st exp $x" >>"$o/bd_$tag.txt"
        HALOFLAG_STAMPS=1 HALOFLAG_EXP=$x timeout 40 mpiexec -np 2 "$bd/examples/jacobi3d/haloflag_jacobi3d" \
          --variant resident --stencil $st --local 32 --iterations 200 --repeats 10 --transport node \
          >>"$o/bd_$tag.txt" 2>&1 || echo "exp $x failed" >>"$o/bd_$tag.txt"
      done
    done
  done
  grep -E "^==|^resident|failed" "$o/bd_$tag.txt"
  grep -E "^stamps" "$o/bd_$tag.txt" | awk 'NR%11==0' | head -40
}
case $STEP in
  call1)
    build_into build-s55 -DHALOFLAG_NCCL=on -DHALOFLAG_PYTHON=OFF
    gpu_tests_of "${TESTS:-embedded_whole|node_placement_cuda|nccl}" 150 40
    patched_copy "$root/.ab/stamps.patch"
    breakdown /tmp/bdtree base
    ;;
  call2)
    jacobi_ab_within "${ROUNDS:-1}" 8bcd13d "${BD_TIME:-130}"
    cat "$o/jab/summary.md" 2>/dev/null
    echo "ab: $(left) s left"
    patched_copy "$root/.ab/stamps2.patch"
    BD_ROUNDS=1 EXPS="0 6" breakdown /tmp/bdtree new
    ;;
  call3)
    build_into build-s55 -DHALOFLAG_NCCL=on -DHALOFLAG_PYTHON=OFF
    in_build "$b" "$o/ctest_gpu_all.txt" timeout $(( $(left) - ${CAL_TIME:-110} )) ctest -L gpu --timeout 120
    echo "ctest rc=$?"
    grep -E "tests passed|\*\*\*|Failed|Not Run|Total Test" "$o/ctest_gpu_all.txt" | tail -30
    echo "tested: $(left) s left"
    HALOFLAG_BUILD_DIR=$b HALOFLAG_CALIBRATION_SKIP_BUILD=1 timeout $(( $(left) - 8 )) \
      scripts/calibrate_machine.sh "$o/calibration" >"$o/calibration_log.txt" 2>&1 ||
      { echo "calibration failed or cut"; tail -20 "$o/calibration_log.txt"; }
    tail -5 "$o/calibration_log.txt"
    ;;
  call4)
    jacobi_ab_within "${ROUNDS:-1}" 8bcd13d "${CHECK_TIME:-200}"
    cat "$o/jab/summary.md" 2>/dev/null | grep -E "^\|"
    echo "ab: $(left) s left"
    HALOFLAG_BUILD_DIR=$b HALOFLAG_CUBES="200 400 800" HALOFLAG_ROUNDS=1 timeout $(( $(left) - 8 )) \
      scripts/bench/bench_node_pieces.sh exchanges "$o/check" --timeout 10 --trace-exchanges 0 \
      --iterations 300 --params "$root/.ab/params.json" >"$o/check_log.txt" 2>&1 ||
      { echo "check failed or cut"; tail -20 "$o/check_log.txt"; }
    grep -E "^(comb_fused|comb_graph|stream_base|stream_notify|stacked_notify|resident|nccl)" "$o/check_log.txt" | head -60
    ;;
  bd)
    patched_copy "$root/.ab/stamps.patch"
    breakdown /tmp/bdtree base
    ;;
esac
echo "end: $(left) s left"
