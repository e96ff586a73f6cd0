#!/usr/bin/env bash
# The device calls behind docs/results/h200x2/2026-11-28_whole_exchange and
# docs/results/h100/2026-11-28_gpu_tests_mps, in order (run from the repository root on the GPU
# machine, with .deps from scripts/stage_offline_deps.sh, the tree compared with in .ab/before
# and the breakdown's patched copy in .ab/exp):
#   mkdir -p .ab/before && git archive bf6c920 | tar -x -C .ab/before --exclude=docs/results
# STEP picks one:
#   probe46   call 1, 2 x H200, tree a72bafc: Jacobi3D before/after (2 rounds), then ctest -L gpu
#             until the call's time ran out (21 of 39 run, all passed)
#   exp46     call 2, 2 x H200: the resident iteration's breakdown on a72bafc with
#             resident_breakdown.patch (scripts/bench/jacobi_resident_breakdown.sh does the same)
#   final_x2  call 3, 2 x H200, tree fb0a692: Jacobi3D before/after (3 rounds), then the GPU
#             tests of what changed, one rank per GPU (13 of 13 passed)
#   mps_a, mps_b  calls 4 and 5, one H100 (ranks sharing it under MPS), tree 1fa4d2e: every GPU
#             test, the short ones first; the second call ran out of device time before its
#             last test
# The tree under test builds into build-ab-after: Jacobi3D first (tests off, as
# ab_jacobi_trees.sh configures it), then the same folder with tests on for ctest.
set -euo pipefail
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
root=$PWD
out=${OUT:-/tmp/out}
build=$root/build-ab-after
cards() { nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$out/$1" 2>&1 || true; }
build_tests() {
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/configure_tests.log" 2>&1
  cmake --build "$build" -j "$(nproc)" >"$out/build_tests.log" 2>&1 || { tail -40 "$out/build_tests.log"; exit 1; }
}
run_gpu_tests() {  # run_gpu_tests NAME: ctest -L gpu, the table on stdout and in OUT/NAME.txt
  (cd "$build" && ctest -L gpu --timeout 200 --output-on-failure) >"$out/$1.txt" 2>&1 || true
  grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/$1.txt" | tail -60
}
start=$(date +%s)
left() { echo $(( ${CALL_LIMIT:-585} - ($(date +%s) - start) )); }
case ${STEP:?set STEP} in
  final_x2)
    # One rank per GPU: Jacobi3D before/after, then the GPU tests of what changed.
    cards gpus_final_x2.txt
    HALOFLAG_AB_ROUNDS=${ROUNDS:-3} HALOFLAG_AB_LABELS="before=bf6c920" \
      scripts/ab/ab_jacobi_trees.sh "$out/jab" before=.ab/before after=. >"$out/jacobi_log.txt" 2>&1 || { tail -40 "$out/jacobi_log.txt"; }
    cat "$out/jab/summary.md" 2>/dev/null || true
    tar -czf "$out/jacobi_ab.tar.gz" -C "$out" jab && rm -rf "$out/jab"
    echo "after jacobi: $(left) s left"
    build_tests
    echo "after build: $(left) s left"
    (cd "$build" && timeout $(( $(left) - 10 )) ctest -L gpu --timeout 120 --output-on-failure \
      -R "embedded|jacobi3d|embedding|fault_injection_process|self_transport|field_memory") \
      >"$out/ctest_gpu_one_rank_per_gpu.txt" 2>&1 || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu_one_rank_per_gpu.txt" | tail -40
    ;;
  mps_a|mps_b)
    # Ranks sharing one GPU under MPS (the tests start it: scripts/gpu/run_with_mps.sh), in two calls
    # on the warm one-GPU machine: the build and the shorter tests, then the long ones.
    cards gpus_$STEP.txt
    [[ -x $build/tests/halo/halo_exchange_strategies_mpi_test ]] || build_tests
    echo "built: $(left) s left"
    long="strategies|stream_exchange_cuda|fault_injection"
    if [[ $STEP == mps_a ]]; then select=(-E "$long"); else select=(-R "$long"); fi
    (cd "$build" && timeout $(( $(left) - 10 )) ctest -L gpu --timeout 150 --output-on-failure "${select[@]}") \
      >"$out/ctest_gpu_$STEP.txt" 2>&1 || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_$STEP.txt" | tail -45
    ;;
  exp46)
    cards gpus_exp.txt
    cmake -S .ab/exp -B .ab/exp/build -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=OFF \
      -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/exp_configure.log" 2>&1
    cmake --build .ab/exp/build -j "$(nproc)" --target haloflag_jacobi3d >"$out/exp_build.log" 2>&1 || { tail -30 "$out/exp_build.log"; exit 1; }
    echo "built: $(left) s left"
    bin=.ab/exp/build/examples/jacobi3d/haloflag_jacobi3d
    for round in 1 2; do for st in 7 27; do for x in 0 1 2 3 4 5; do
      v=resident; [[ $x == 0 ]] && v=all
      echo "== round $round stencil $st exp $x" >>"$out/exp_runs.txt"
      HALOFLAG_EXP=$x timeout 60 mpiexec -np 2 $bin --variant $v --stencil $st --local 32 --iterations 200 --repeats 10 --transport node >>"$out/exp_runs.txt" 2>&1 || echo "exp $x failed" >>"$out/exp_runs.txt"
    done; done; done
    grep -E "^==|^conventional|^resident|^stream|failed|rror" "$out/exp_runs.txt"
    ;;
  probe46)
    cards gpus_probe.txt
    HALOFLAG_AB_ROUNDS=${ROUNDS:-2} HALOFLAG_AB_LABELS="before=bf6c920" \
      scripts/ab/ab_jacobi_trees.sh "$out/jab" before=.ab/before after=. >"$out/jacobi_log.txt" 2>&1 || { tail -40 "$out/jacobi_log.txt"; }
    cat "$out/jab/summary.md" 2>/dev/null || true
    tar -czf "$out/jacobi_ab.tar.gz" -C "$out" jab && rm -rf "$out/jab"
    echo "after jacobi: $(left) s left"
    build_tests
    echo "after build: $(left) s left"
    (cd "$build" && timeout $(( $(left) - 10 )) ctest -L gpu --timeout 150 --output-on-failure) >"$out/ctest_gpu.txt" 2>&1 || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu.txt" | tail -60
    ;;
  jacobi)
    cards gpus_jacobi.txt
    HALOFLAG_AB_ROUNDS=3 HALOFLAG_AB_LABELS="before=891c7c2" \
      scripts/ab/ab_jacobi_trees.sh "$out/jab" before=.ab/before after=. >"$out/jacobi_log.txt" 2>&1 || { tail -40 "$out/jacobi_log.txt"; }
    cat "$out/jab/summary.md" 2>/dev/null || true
    tar -czf "$out/jacobi_ab.tar.gz" -C "$out" jab && rm -rf "$out/jab"
    ;;
  gpu_tests)
    cards gpus_tests.txt
    build_tests
    run_gpu_tests ctest_gpu_one_rank_per_gpu
    ;;
  halo_bench)
    cards gpus_halo_bench.txt
    HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_BASELINE_BUILD=$root/.ab/before/build-ab-before \
      HALOFLAG_BUILD_DIR=$build HALOFLAG_ROUNDS=2 \
      scripts/ab/ab_halo_bench_trees.sh "$out/hb" --iterations 300 --trace-exchanges 0 >"$out/halo_bench_log.txt" 2>&1 || tail -30 "$out/halo_bench_log.txt"
    cp "$out/hb/ab_halo_bench.tar.gz" "$out/halo_bench_ab.tar.gz" 2>/dev/null || true
    cat "$out/hb/ab_halo_bench/summary.txt" 2>/dev/null || true
    cp "$out/hb/ab_halo_bench/summary.txt" "$out/halo_bench_ab_summary.txt" 2>/dev/null || true
    rm -rf "$out/hb"
    ;;
  gpu_tests_mps)
    cards gpus_tests_mps.txt
    build_tests
    run_gpu_tests ctest_gpu_mps
    ;;
esac
