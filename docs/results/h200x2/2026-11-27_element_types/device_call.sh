#!/bin/bash
# One device call: build this tree (tests included) and the baseline's halo_bench (once; a warm
# machine keeps them), then the steps named in STEPS, in order, within LIMIT seconds:
#   ctest_first  ctest -L gpu -R "$FIRST"     bench  scripts/bench/bench_element_types.sh (ROUNDS)
#   ctest_rest   ctest -L gpu -E "$FIRST"     ctest  ctest -L gpu
set -u
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
call_clock "${LIMIT:-585}"
nvidia-smi -L > $OUT/gpus.txt; cat $OUT/gpus.txt
if [[ ! -f build-gpu/CMakeCache.txt ]]; then
  configure_cuda . build-gpu "$OUT/cfg.log" -DHALOFLAG_BUILD_TESTS=ON
fi
if [[ ! -f build-baseline/CMakeCache.txt ]]; then
  configure_cuda build-devbin/baseline-src build-baseline "$OUT/cfg_base.log"
fi
(cmake --build build-baseline -j 8 --target halo_bench > $OUT/build_base.log 2>&1; echo "baseline built: $?" >> $OUT/build_base.log) &
cmake --build build-gpu -j 28 -- -k > $OUT/build.log 2>&1; echo "build rc=$? at $(elapsed) s"
wait
grep -E "error" $OUT/build.log | head -10
tail -1 $OUT/build_base.log
run_ctest() {  # run_ctest NAME ARGS...
  local name=$1; shift
  local t=$(left)
  [[ $t -lt 30 ]] && { echo "$name: no time left"; return; }
  (cd build-gpu && timeout $t ctest -L gpu --timeout 200 "$@" > $OUT/$name.txt 2>&1)
  echo "$name rc=$? at $(elapsed) s"
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
      echo "bench rc=$? at $(elapsed) s"
      cp $OUT/run/element_types.tar.gz $OUT/ 2>/dev/null; rm -rf $OUT/run
      tail -15 $OUT/bench.log ;;
  esac
done
