#!/usr/bin/env bash
# On a machine with 2 GPUs: builds what the fused kernels' checks need (CUDA, Release), runs the
# GPU tests that launch them (Jacobi3D's variants side by side, every strategy, element types,
# nccl) and the pack/unpack calibration's rates of the fused kernels beside the copy engine.
#   scripts/gpu/gpu_fused_check.sh OUT_DIR [ctest name pattern]
# Writes into OUT_DIR: gpus.txt, configure/build logs, ctest_gpu.txt, calibration.txt and the
# calibration's table and raw JSON. Offline machines: carry .deps (scripts/stage_offline_deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_fused_check.sh OUT_DIR [ctest name pattern]}
pattern=${2:-jacobi3d_reference_cuda|strategies_cuda_np2|element_types_cuda_np2|nccl_exchange_cuda_np2}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$out/gpus.txt" 2>&1 || true
cmake -S "$root" -B "$build" -DHALOFLAG_GPU=cuda -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/configure.log" 2>&1
cmake --build "$build" -j "$(nproc)" --target halo_exchange_strategies_mpi_test \
  halo_element_types_mpi_test halo_nccl_exchange_mpi_test jacobi3d_reference_mpi_test \
  haloflag_calibrate_pack_unpack >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
(cd "$build" && ctest -L gpu --timeout 100 --output-on-failure -R "$pattern") \
  >"$out/ctest_gpu.txt" 2>&1 || true
grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/ctest_gpu.txt" | tail -40
timeout 120 mpiexec -np 2 "$build/bench/pack_unpack_calibration/haloflag_calibrate_pack_unpack" \
  --quick --halo-cubes 64,128,256 --out "$out/pack_unpack.json" >"$out/calibration.txt" 2>&1 ||
  echo "calibration failed (exit $?)"
sed -n '/^halo sets:/,$p' "$out/calibration.txt"
