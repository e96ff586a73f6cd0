#!/bin/bash
# One device call: build this tree (tests included) and the baseline's halo_bench, the element
# types benchmark, then the GPU tests for what time is left.
set -u
start=$SECONDS
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L > $OUT/gpus.txt
limit=${LIMIT:-585}
if [[ ! -f build-gpu/CMakeCache.txt ]]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
    -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr > $OUT/cfg.log 2>&1
fi
if [[ ${BENCH:-1} == 1 && ! -f build-baseline/CMakeCache.txt ]]; then
  cmake -S build-devbin/baseline-src -B build-baseline -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
    -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr > $OUT/cfg_base.log 2>&1
fi
[[ ${BENCH:-1} == 1 ]] && (cmake --build build-baseline -j 8 --target halo_bench > $OUT/build_base.log 2>&1; echo "baseline built: $?" >> $OUT/build_base.log) &
cmake --build build-gpu -j 28 -- -k > $OUT/build.log 2>&1; echo "build rc=$? at $((SECONDS-start)) s"
wait
grep -E "error" $OUT/build.log | head -10
tail -1 $OUT/build_base.log 2>/dev/null
if [[ ${BENCH:-1} == 1 ]]; then
  HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$PWD/build-gpu HALOFLAG_BASELINE_SRC=build-devbin/baseline-src \
    HALOFLAG_BASELINE_BUILD=$PWD/build-baseline HALOFLAG_ROUNDS=${ROUNDS:-2} \
    timeout $((limit - (SECONDS-start))) scripts/bench_element_types.sh $OUT/run --iterations 300 --trace-exchanges 0 > $OUT/bench.log 2>&1
  echo "bench rc=$? at $((SECONDS-start)) s"
  cp $OUT/run/element_types.tar.gz $OUT/ 2>/dev/null; rm -rf $OUT/run
  tail -15 $OUT/bench.log
fi
left=$((limit - (SECONDS-start)))
if [[ $left -gt 30 ]]; then
  (cd build-gpu && timeout $left ctest -L gpu -j 2 --timeout 200 ${CTEST_ARGS:-} > $OUT/ctest.txt 2>&1)
  echo "ctest rc=$? at $((SECONDS-start)) s"
  grep -E "Test +#|tests passed|tests failed|Passed|Failed|Not Run|\*\*\*" $OUT/ctest.txt | tail -45
fi
