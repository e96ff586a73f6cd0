#!/usr/bin/env bash
# On a GPU machine without internet (carry .deps after scripts/stage_offline_deps.sh): builds the
# Python package with the CUDA backend for the machine's Python (the one with PyTorch or CuPy),
# then runs every Python test on 2 ranks (the GPU ones included: CuPy and PyTorch fields,
# start(stream)/wait(stream)), the Jacobi example, and the C++-versus-Python benchmark
# (scripts/bench/bench_python_overhead.sh). Two GPUs give each rank its own; one GPU is shared under
# MPS (scripts/gpu/run_with_mps.sh).
#   scripts/gpu/python_gpu_check.sh [OUT_DIR]      logs to OUT_DIR (default build-py-gpu/logs)
# Environment: PYTHON (default: the first python3 on PATH), CUDA_ARCH (90).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-py-gpu
out=${1:-$build/logs}
python=${PYTHON:-$(command -v python3)}
site=$build/site  # what this script installs for Python, outside the machine's environment
mkdir -p "$out" "$site"
export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
{
  nvidia-smi -L || true
  "$python" --version
  "$python" -c "import torch; print('torch', torch.__version__)" 2>/dev/null || echo "no torch"
  "$python" -c "import cupy; print('cupy', cupy.__version__)" 2>/dev/null || echo "no cupy"
} 2>&1 | tee "$out/machine.txt"

# nanobind's CMake package straight from the staged wheel; mpi4py from its staged source where
# the machine has none (Cython and setuptools build it; --no-build-isolation: nothing to fetch).
"$python" -m nanobind --cmake_dir >/dev/null 2>&1 ||
  "$python" -m zipfile -e "$(ls "$root"/.deps/wheels/nanobind-*.whl)" "$site"
if ! "$python" -c "import mpi4py" 2>/dev/null; then
  "$python" -m pip install -q --no-index --find-links "$root/.deps/wheels" --target "$site" cython
  "$python" -m pip install -q --no-index --no-build-isolation --find-links "$root/.deps/wheels" \
    --target "$site" mpi4py
fi
nanobind_dir=$("$python" -m nanobind --cmake_dir)

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" -DHALOFLAG_PYTHON=ON \
  -DPython_EXECUTABLE="$python" -Dnanobind_DIR="$nanobind_dir" \
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" -DHALOFLAG_BUILD_TESTS=OFF -DHALOFLAG_BUILD_BENCH=OFF \
  -DHALOFLAG_BUILD_EXAMPLES=OFF 2>&1 | tee "$out/configure.log"
cmake --build "$build" --target haloflag_python haloflag_run_loop -j "$(nproc)" 2>&1 | tail -3 | tee "$out/build.log"
# How the module gets its C++ runtime: a toolchain that links libstdc++ statically puts a second
# copy beside the interpreter's (python/CMakeLists.txt keeps that copy private).
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
{
  echo "C++ compiler: $cxx ($("$cxx" -dumpfullversion)); libstdc++.so: $("$cxx" -print-file-name=libstdc++.so)"
  echo "module needs: $(readelf -d "$build"/python/haloflag/_core*.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
} 2>&1 | tee -a "$out/machine.txt"

export PYTHONPATH=$build/python:$root/tests/python:$PYTHONPATH
mpi=("$root/scripts/gpu/run_with_mps.sh" 2 mpiexec --oversubscribe -n 2)
status=0
"${mpi[@]}" "$python" "$root/tests/python/run_pytest.py" "$root/tests/python/test_gpu.py" 2>&1 |
  tee "$out/test_gpu.log" || status=1
"${mpi[@]}" "$python" "$root/tests/python/run_pytest.py" "$root/tests/python" \
  --ignore="$root/tests/python/test_gpu.py" 2>&1 | tee "$out/test_host.log" || status=1
for library in cupy torch; do
  if "$python" -c "import $library" 2>/dev/null; then
    "${mpi[@]}" "$python" "$root/examples/python/jacobi3d.py" --library "$library" \
      --shape 128 128 128 --iterations 100 \
      2>&1 | tee "$out/jacobi3d_$library.log" || status=1
  fi
done
PYTHON=$python MPIEXEC_ARGS="${MPIEXEC_ARGS:-}" \
  "$root/scripts/gpu/run_with_mps.sh" 2 "$root/scripts/bench/bench_python_overhead.sh" "$out/python_overhead" "$build" \
  2>&1 | tee "$out/python_overhead.log" || status=1
echo "python_gpu_check: $([[ $status == 0 ]] && echo "every step passed" || echo "a step FAILED"); logs in $out"
exit $status
