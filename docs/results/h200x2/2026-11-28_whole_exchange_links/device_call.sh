#!/usr/bin/env bash
# Session 55's device calls (repository root on the GPU machine, .deps and .ab carried).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
root=$PWD
start=$(date +%s)
left() { echo $(( ${CALL_LIMIT:-585} - ($(date +%s) - start) )); }
o=$OUT/work; mkdir -p "$o"
finish() { tar -czf "$OUT/${STEP}.tar.gz" -C "$OUT" work && rm -rf "$o"; }
trap finish EXIT
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$o/gpus.txt" 2>&1
git -C "$root" log --oneline -1 >"$o/tree.txt" 2>&1 || true
cat "$o/gpus.txt"
b=$root/build-s55
build_main() {
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
    -DHALOFLAG_NCCL=on -DHALOFLAG_PYTHON=OFF -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" \
    >"$o/configure.log" 2>&1
  cmake --build "$b" -j "$(nproc)" >"$o/build.log" 2>&1 || { tail -30 "$o/build.log"; exit 1; }
  echo "built: $(left) s left"
}
gpu_tests() {  # regex, seconds
  (cd "$b" && timeout "$2" ctest -L gpu --timeout 100 --output-on-failure -R "$1") \
    >"$o/ctest_gpu.txt" 2>&1
  grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$o/ctest_gpu.txt" | tail -40
  echo "tested: $(left) s left"
}
breakdown() {  # tree dir (with the stamps patch applied there), label
  local src=$1 tag=$2 bd=$1/build-bd
  cmake -S "$src" -B "$bd" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=OFF \
    -DHALOFLAG_PYTHON=OFF -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$o/bd_configure_$tag.log" 2>&1
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
    build_main
    gpu_tests "${TESTS:-embedded_whole|node_placement_cuda|nccl}" 150
    rm -rf /tmp/bdtree && mkdir -p /tmp/bdtree
    tar -C "$root" --exclude='./build*' --exclude=./.deps --exclude=./.ab --exclude=./.git -cf - . | tar -x -C /tmp/bdtree
    patch -d /tmp/bdtree -p1 <"$root/.ab/stamps.patch" >"$o/patch.log" || { cat "$o/patch.log"; exit 1; }
    breakdown /tmp/bdtree base
    ;;
  call2)
    HALOFLAG_AB_ROUNDS=${ROUNDS:-1} HALOFLAG_AB_LABELS="before=8bcd13d" \
      timeout $(( $(left) - ${BD_TIME:-130} )) scripts/ab/ab_jacobi_trees.sh "$o/jab" before=.ab/before after=. \
      >"$o/jacobi_ab_log.txt" 2>&1 || { echo "A/B failed or cut"; tail -20 "$o/jacobi_ab_log.txt"; }
    cat "$o/jab/summary.md" 2>/dev/null
    echo "ab: $(left) s left"
    rm -rf /tmp/bdtree && mkdir -p /tmp/bdtree
    tar -C "$root" --exclude='./build*' --exclude=./.deps --exclude=./.ab --exclude=./.git -cf - . | tar -x -C /tmp/bdtree
    patch -d /tmp/bdtree -p1 <"$root/.ab/stamps2.patch" >"$o/patch.log" || { cat "$o/patch.log"; exit 1; }
    BD_ROUNDS=1 EXPS="0 6" breakdown /tmp/bdtree new
    ;;
  call3)
    build_main
    (cd "$b" && timeout $(( $(left) - ${CAL_TIME:-110} )) ctest -L gpu --timeout 120) \
      >"$o/ctest_gpu_all.txt" 2>&1
    echo "ctest rc=$?"
    grep -E "tests passed|\*\*\*|Failed|Not Run|Total Test" "$o/ctest_gpu_all.txt" | tail -30
    echo "tested: $(left) s left"
    HALOFLAG_BUILD_DIR=$b HALOFLAG_CALIBRATION_SKIP_BUILD=1 timeout $(( $(left) - 8 )) \
      scripts/calibrate_machine.sh "$o/calibration" >"$o/calibration_log.txt" 2>&1 ||
      { echo "calibration failed or cut"; tail -20 "$o/calibration_log.txt"; }
    tail -5 "$o/calibration_log.txt"
    ;;
  call4)
    HALOFLAG_AB_ROUNDS=${ROUNDS:-1} HALOFLAG_AB_LABELS="before=8bcd13d" \
      timeout $(( $(left) - ${CHECK_TIME:-200} )) scripts/ab/ab_jacobi_trees.sh "$o/jab" before=.ab/before after=. \
      >"$o/jacobi_ab_log.txt" 2>&1 || { echo "A/B failed or cut"; tail -20 "$o/jacobi_ab_log.txt"; }
    cat "$o/jab/summary.md" 2>/dev/null | grep -E "^\|"
    echo "ab: $(left) s left"
    HALOFLAG_BUILD_DIR=$b HALOFLAG_CUBES="200 400 800" HALOFLAG_ROUNDS=1 timeout $(( $(left) - 8 )) \
      scripts/bench/bench_node_pieces.sh exchanges "$o/check" --timeout 10 --trace-exchanges 0 \
      --iterations 300 --params "$root/.ab/params.json" >"$o/check_log.txt" 2>&1 ||
      { echo "check failed or cut"; tail -20 "$o/check_log.txt"; }
    grep -E "^(comb_fused|comb_graph|stream_base|stream_notify|stacked_notify|resident|nccl)" "$o/check_log.txt" | head -60
    ;;
  bd)
    rm -rf /tmp/bdtree && mkdir -p /tmp/bdtree
    tar -C "$root" --exclude='./build*' --exclude=./.deps --exclude=./.ab --exclude=./.git -cf - . | tar -x -C /tmp/bdtree
    patch -d /tmp/bdtree -p1 <"$root/.ab/stamps.patch" >"$o/patch.log" || { cat "$o/patch.log"; exit 1; }
    breakdown /tmp/bdtree base
    ;;
esac
echo "end: $(left) s left"
