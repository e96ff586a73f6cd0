#!/usr/bin/env bash
# Session 57's device calls (repository root on the GPU machine; .deps from
# scripts/stage_offline_deps.sh carried, the peer's source among it). STEP picks the call:
#   probe2d  jacobi2d and its peer only (2 GPUs): build, the GPU test, the 2-D sizes
#   full     everything (RANKS GPUs): build, the GPU tests of both examples, scripts/bench_stencils.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
root=$PWD
start=$(date +%s)
left() { echo $(( ${CALL_LIMIT:-580} - ($(date +%s) - start) )); }
o=$OUT/w; mkdir -p "$o"
finish() { tar -czf "$OUT/${STEP}_np${RANKS:-2}.tar.gz" -C "$OUT" w && rm -rf "$o"; }
trap finish EXIT
build=$root/build-gpu
peer=$root/build-peer
ranks=${RANKS:-2}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$o/configure.log" 2>&1 || { tail -30 "$o/configure.log"; exit 1; }
targets=(haloflag_jacobi2d jacobi2d_reference_mpi_test)
[[ $STEP == full ]] && targets+=(haloflag_jacobi3d jacobi3d_reference_mpi_test)
cmake --build "$build" -j 24 --target "${targets[@]}" >"$o/build.log" 2>&1 &
scripts/build_jacobi_peer.sh "$root/.deps/peer/multi-gpu-programming-models" "$peer" >"$o/peer_build.log" 2>&1
cat "$o/peer_build.log"
wait || { tail -40 "$o/build.log"; exit 1; }
grep -q "error:" "$o/build.log" && { grep -B2 -A8 "error:" "$o/build.log" | head -60; exit 1; }
echo "built: $(left) s left"
tests="jacobi2d_reference_cuda"
[[ $STEP == full ]] && tests="jacobi2d_reference_cuda|jacobi3d_reference_cuda"
(cd "$build" && timeout 200 ctest -L gpu --timeout 150 --output-on-failure -R "$tests") >"$o/ctest_gpu.txt" 2>&1
grep -E "tests passed|\*\*\*|Failed|Passed|Total Test" "$o/ctest_gpu.txt" | tail -12
echo "tested: $(left) s left"
[[ $STEP == probe2d ]] && export SIZES_3D=" "
HALOFLAG_BUILD_DIR=$build PEER_BUILD=$peer RANKS=$ranks RUN_LIMIT=100 \
  timeout $(( $(left) - 15 )) scripts/bench_stencils.sh "$o/stencils"
echo "done: $(left) s left"
