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
#   jacobi, gpu_tests, halo_bench, gpu_tests_mps  the steps this file grew from, as
#             docs/results/h200x2/2026-11-27_self_transport/device_call.sh runs them
# The tree under test builds into build-ab-after: Jacobi3D first (tests off, as
# ab_jacobi_trees.sh configures it), then the same folder with tests on for ctest.
set -euo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
ab_after_layout
call_clock 585
case ${STEP:?set STEP} in
  final_x2)
    # One rank per GPU: Jacobi3D before/after, then the GPU tests of what changed.
    cards "$out/gpus_final_x2.txt"
    jacobi_ab_packed "${ROUNDS:-3}" bf6c920 || true
    echo "after jacobi: $(left) s left"
    build_tests
    echo "after build: $(left) s left"
    in_build "$build" "$out/ctest_gpu_one_rank_per_gpu.txt" timeout $(( $(left) - 10 )) ctest -L gpu \
      --timeout 120 --output-on-failure -R "embedded|jacobi3d|embedding|fault_injection_process|self_transport|field_memory" ||
      true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu_one_rank_per_gpu.txt" | tail -40
    ;;
  mps_a|mps_b)
    # Ranks sharing one GPU under MPS (the tests start it: scripts/gpu/run_with_mps.sh), in two calls
    # on the warm one-GPU machine: the build and the shorter tests, then the long ones.
    cards "$out/gpus_$STEP.txt"
    [[ -x $build/tests/halo/halo_exchange_strategies_mpi_test ]] || build_tests
    echo "built: $(left) s left"
    long="strategies|stream_exchange_cuda|fault_injection"
    if [[ $STEP == mps_a ]]; then select=(-E "$long"); else select=(-R "$long"); fi
    in_build "$build" "$out/ctest_gpu_$STEP.txt" timeout $(( $(left) - 10 )) ctest -L gpu --timeout 150 \
      --output-on-failure "${select[@]}" || true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$out/ctest_gpu_$STEP.txt" | tail -45
    ;;
  exp46)
    cards "$out/gpus_exp.txt"
    configure_cuda .ab/exp .ab/exp/build "$out/exp_configure.log" -DHALOFLAG_BUILD_TESTS=OFF
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
    cards "$out/gpus_probe.txt"
    jacobi_ab_packed "${ROUNDS:-2}" bf6c920 || true
    echo "after jacobi: $(left) s left"
    build_tests
    echo "after build: $(left) s left"
    in_build "$build" "$out/ctest_gpu.txt" timeout $(( $(left) - 10 )) ctest -L gpu --timeout 150 --output-on-failure ||
      true
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu.txt" | tail -60
    ;;
  jacobi|gpu_tests|halo_bench|gpu_tests_mps)
    # Steps this file kept from the record it grew out of: run as that record runs them.
    exec bash docs/results/h200x2/2026-11-27_self_transport/device_call.sh
    ;;
esac
