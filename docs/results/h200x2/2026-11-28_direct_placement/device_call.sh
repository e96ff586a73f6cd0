#!/usr/bin/env bash
# Session 53's device calls (run from the repository root on the GPU machine, .deps carried).
# STEP=call1: GPU tests of what changed + Jacobi3D's variants on this tree + fused rates.
# STEP=call2: Jacobi3D A/B against .ab/before (bfdb4ef) + the Python example on the GPUs.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
step_call 590
case $STEP in
  call1)
    build_into build-s53 -DHALOFLAG_PYTHON=OFF
    gpu_tests_of "embedded|jacobi3d_reference|embedding|strategies_cuda_np2|element_types_cuda_np2|nccl_exchange_cuda_np2" \
      $(( $(left) - 150 )) 30
    for st in 7 27; do
      jacobi_variants "$b" "$o" $st 70
      grep -E "^conventional|^resident|^stream|x$|check|speed|µs|us" "$o/jacobi_s$st.txt" | head -14
    done
    echo "jacobi: $(left) s left"
    if (( $(left) > 100 )); then
      timeout $(( $(left) - 15 )) mpiexec -np 2 "$b/bench/pack_unpack_calibration/haloflag_calibrate_pack_unpack" \
        --quick --halo-cubes 64,128,256 --out "$o/pack_unpack.json" >"$o/calibration.txt" 2>&1 ||
        echo "calibration failed or cut (exit $?)"
      sed -n '/rates/,$p' "$o/calibration.txt" | head -30
    fi
    ;;
  call2)
    jacobi_ab_within "${ROUNDS:-2}" bfdb4ef 200
    cat "$o/jab/summary.md" 2>/dev/null
    echo "A/B: $(left) s left"
    py=$(ls /opt/torch/.venv/bin/python3 2>/dev/null || command -v python3)
    PYTHON=$py timeout $(( $(left) - 10 )) scripts/gpu/python_gpu_check.sh "$o/py" >"$o/py_check.log" 2>&1
    echo "python rc=$?"
    grep -E "passed|failed|per iteration|difference|target|FAILED|Error" "$o/py_check.log" | head -30
    ;;
  call3)
    py=$(ls /opt/torch/.venv/bin/python3 2>/dev/null || command -v python3)
    ROUNDS=3 ITERATIONS=1000 PYTHON=$py timeout $(( $(left) - 150 )) scripts/gpu/python_gpu_check.sh "$o/py" \
      >"$o/py_check.log" 2>&1
    echo "python rc=$?"
    grep -E "passed|failed|per iteration|difference|loop of|costs|FAILED|Error" "$o/py_check.log" | head -30
    echo "python: $(left) s left"
    b=$root/build-py-gpu
    cmake -S . -B "$b" -DHALOFLAG_BUILD_BENCH=ON -DHALOFLAG_NCCL=on >"$o/configure_bench.log" 2>&1 &&
      cmake --build "$b" -j "$(nproc)" --target halo_bench >"$o/build_bench.log" 2>&1 ||
      { tail -20 "$o/build_bench.log"; exit 1; }
    for cube in 200 800; do
      (( $(left) > 40 )) || break
      timeout $(( $(left) - 15 )) mpiexec -n 2 "$b/bench/halo_bench" \
        --config comb_configs/comb_${cube}_np2_reduced.cfg --strategy nccl,comb_fused,resident \
        --transport node --rounds 2 --progress 0 --json "$o/nccl_${cube}.json" >"$o/nccl_${cube}.txt" 2>&1 ||
        echo "halo_bench $cube failed or cut"
      sed -n '1,/^vs comb_fused:/p' "$o/nccl_${cube}.txt" | grep -E '^(strategy|nccl|comb_fused|resident)|^  nccl' | head -12
      sed -n '/^stream steps/,/^pack, group, unpack/p' "$o/nccl_${cube}.txt" | head -12
    done
    ;;
esac
echo "end: $(left) s left"
