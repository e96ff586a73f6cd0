#!/usr/bin/env bash
# On a machine with GPUs (one rank per GPU): builds the tree with tests (CUDA), runs the GPU tests
# whose names match PATTERN, then Jacobi3D's three variants at 7 and 27 points over node, checked
# bit for bit against the single-rank reference, with the ratios taken from one run.
#   scripts/gpu/gpu_tests_and_jacobi.sh OUT_DIR [PATTERN]
# Writes into OUT_DIR: gpus.txt, configure/build logs, ctest_gpu.txt, jacobi_s7|s27.{txt,json}.
# Offline machines: carry .deps from scripts/stage_offline_deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_tests_and_jacobi.sh OUT_DIR [ctest name pattern]}
pattern=${2:-jacobi|embedding|embedded_whole|strategies_cuda_np2|element_types_cuda_np2|nccl_exchange_cuda_np2}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu-tests}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$out/gpus.txt" 2>&1 || true
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda -DHALOFLAG_BUILD_TESTS=ON \
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/configure.log" 2>&1
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
(cd "$build" && ctest -L gpu --timeout 100 --output-on-failure -R "$pattern") >"$out/ctest_gpu.txt" 2>&1 || true
grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu.txt" | tail -40
for stencil in 7 27; do
  mpiexec -np 2 "$build/examples/jacobi3d/haloflag_jacobi3d" --local 32 --stencil "$stencil" \
    --variant all --check --iterations 200 --repeats 10 --transport node \
    --json "$out/jacobi_s$stencil.json" >"$out/jacobi_s$stencil.txt" 2>&1 || echo "jacobi $stencil failed"
  grep -E "^conventional|^resident|^stream|x$|check" "$out/jacobi_s$stencil.txt" || true
done
