#!/bin/bash
# One device call: build this tree (tests included) and the baseline's halo_bench (once; a warm
# machine keeps them), then the steps named in STEPS, in order, within LIMIT seconds:
#   ctest_first  ctest -L gpu -R "$FIRST"     bench  scripts/bench/bench_element_types.sh (ROUNDS)
#   ctest_rest   ctest -L gpu -E "$FIRST"     ctest  ctest -L gpu
set -u
start=$SECONDS
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L > $OUT/gpus.txt; cat $OUT/gpus.txt
limit=${LIMIT:-585}
left() { echo $((limit - (SECONDS - start))); }
if [[ ! -f build-gpu/CMakeCache.txt ]]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
    -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr > $OUT/cfg.log 2>&1
fi
if [[ ! -f build-baseline/CMakeCache.txt ]]; then
  cmake -S build-devbin/baseline-src -B build-baseline -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
    -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr > $OUT/cfg_base.log 2>&1
fi
(cmake --build build-baseline -j 8 --target halo_bench > $OUT/build_base.log 2>&1; echo "baseline built: $?" >> $OUT/build_base.log) &
cmake --build build-gpu -j 28 -- -k > $OUT/build.log 2>&1; echo "build rc=$? at $((SECONDS-start)) s"
wait
grep -E "error" $OUT/build.log | head -10
tail -1 $OUT/build_base.log
run_ctest() {  # run_ctest NAME ARGS...
  local name=$1; shift
  local t=$(left)
  [[ $t -lt 30 ]] && { echo "$name: no time left"; return; }
  (cd build-gpu && timeout $t ctest -L gpu --timeout 200 "$@" > $OUT/$name.txt 2>&1)
  echo "$name rc=$? at $((SECONDS-start)) s"
  grep -E "Test +#|tests passed|tests failed|\*\*\*|Not Run" $OUT/$name.txt | tail -45
}
for step in ${STEPS:-ctest}; do
  case $step in
    ctest_first) run_ctest ctest_first -R "$FIRST" ;;
    ctest_rest) run_ctest ctest_rest -E "$FIRST" ;;
    ctest) run_ctest ctest ;;
    bench)
      HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$PWD/build-gpu HALOFLAG_BASELINE_SRC=build-devbin/baseline-src \
        HALOFLAG_BASELINE_BUILD=$PWD/build-baseline HALOFLAG_ROUNDS=${ROUNDS:-2} \
        timeout $(left) scripts/bench/bench_element_types.sh $OUT/run --iterations 300 --trace-exchanges 0 > $OUT/bench.log 2>&1
      echo "bench rc=$? at $((SECONDS-start)) s"
      cp $OUT/run/element_types.tar.gz $OUT/ 2>/dev/null; rm -rf $OUT/run
      tail -15 $OUT/bench.log ;;
  esac
done
