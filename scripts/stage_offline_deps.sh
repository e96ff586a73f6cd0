#!/usr/bin/env bash
# Downloads the Debian packages of the header-only dependencies (nlohmann_json, CLI11) into
# .deps/debs and unpacks them into .deps/root, so a machine with no internet access (the GPU
# machines) can build with:  cmake -DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr ...
# GoogleTest, MPI, CMake and the CUDA toolkit are expected on such machines.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=$root/.deps
mkdir -p "$deps/debs" "$deps/root"
cd "$deps/debs"
apt-get download nlohmann-json3-dev libcli11-dev >/dev/null 2>&1 || {
  apt-get update -qq && apt-get download nlohmann-json3-dev libcli11-dev
}
for deb in "$deps"/debs/*.deb; do dpkg -x "$deb" "$deps/root"; done
echo "staged into $deps/root:"
find "$deps/root" -name "*Config.cmake" -o -name "*config.cmake" | sed "s|$root/||"

# The Python package (docs/python.md) on such a machine, for scripts/gpu/python_gpu_check.sh:
# nanobind (its CMake package is unpacked from the wheel), scikit-build-core and its pure-Python
# dependencies (for an offline `pip install .`), and mpi4py's source with Cython (both pure
# Python) where the machine's Python (3.10 or later) has no mpi4py. About 3 MiB.
wheels=$deps/wheels
mkdir -p "$wheels"
pip_cmd=(python3 -m pip)
[[ -x $root/.tools/python/bin/pip ]] && pip_cmd=("$root/.tools/python/bin/pip")
"${pip_cmd[@]}" download -q --disable-pip-version-check --only-binary :all: --platform any \
  --python-version 3.10 -d "$wheels" nanobind==3.1.0 scikit-build-core==1.1.2 cython
"${pip_cmd[@]}" download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$wheels" mpi4py
echo "staged into $wheels ($(du -sh "$wheels" | cut -f1)):"
ls "$wheels" | sed 's/^/  /'

# The peer of examples/jacobi2d, NVIDIA's multi-gpu-programming-models, at the commit its results
# were taken with, for scripts/bench/build_jacobi_peer.sh on a machine with no internet. Only built and
# run beside haloflag's, never part of it. Skipped, saying so, where GitHub cannot be reached.
peer=$deps/peer/multi-gpu-programming-models
peer_commit=9a600f5ea8f5e53614e30b7b36e9136107178dd8
if [[ ! -f $peer/single_gpu/jacobi.cu ]]; then
  rm -rf "$peer.tmp" && mkdir -p "$(dirname "$peer")"
  if git clone -q https://github.com/NVIDIA/multi-gpu-programming-models "$peer.tmp" &&
     git -C "$peer.tmp" checkout -q "$peer_commit"; then
    rm -rf "$peer.tmp/.git" && mv "$peer.tmp" "$peer"
    echo "staged the Jacobi peer at $peer_commit into $peer"
  else
    rm -rf "$peer.tmp"
    echo "could not fetch NVIDIA/multi-gpu-programming-models: scripts/bench/build_jacobi_peer.sh will have no peer"
  fi
fi
