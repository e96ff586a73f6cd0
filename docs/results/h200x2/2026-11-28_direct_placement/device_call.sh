#!/usr/bin/env bash
# Session 53's device calls (run from the repository root on the GPU machine, .deps carried).
# STEP=call1: GPU tests of what changed + Jacobi3D's variants on this tree + fused rates.
# STEP=call2: Jacobi3D A/B against .ab/before (bfdb4ef) + the Python example on the GPUs.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
root=$PWD
start=$(date +%s)
left() { echo $(( ${CALL_LIMIT:-590} - ($(date +%s) - start) )); }
o=$OUT/work; mkdir -p "$o"
finish() { tar -czf "$OUT/${STEP}.tar.gz" -C "$OUT" work && rm -rf "$o"; }
trap finish EXIT
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$o/gpus.txt" 2>&1
git -C "$root" log --oneline -1 >"$o/tree.txt" 2>&1 || true
cat "$o/gpus.txt"
case $STEP in
  call1)
    b=$root/build-s53
    cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
      -DHALOFLAG_PYTHON=OFF -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$o/configure.log" 2>&1
    cmake --build "$b" -j "$(nproc)" >"$o/build.log" 2>&1 || { tail -30 "$o/build.log"; exit 1; }
    echo "built: $(left) s left"
    (cd "$b" && timeout $(( $(left) - 150 )) ctest -L gpu --timeout 100 --output-on-failure \
      -R "embedded|jacobi3d_reference|embedding|strategies_cuda_np2|element_types_cuda_np2|nccl_exchange_cuda_np2") \
      >"$o/ctest_gpu.txt" 2>&1
    grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$o/ctest_gpu.txt" | tail -30
    echo "tested: $(left) s left"
    for st in 7 27; do
      timeout 70 mpiexec -np 2 "$b/examples/jacobi3d/haloflag_jacobi3d" --local 32 --stencil $st \
        --variant all --check --iterations 200 --repeats 10 --transport node \
        --json "$o/jacobi_s$st.json" >"$o/jacobi_s$st.txt" 2>&1 || echo "jacobi $st failed"
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
    HALOFLAG_AB_ROUNDS=${ROUNDS:-2} HALOFLAG_AB_LABELS="before=bfdb4ef" \
      timeout $(( $(left) - 200 )) scripts/ab/ab_jacobi_trees.sh "$o/jab" before=.ab/before after=. \
      >"$o/jacobi_ab_log.txt" 2>&1 || { echo "A/B failed or cut"; tail -20 "$o/jacobi_ab_log.txt"; }
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
