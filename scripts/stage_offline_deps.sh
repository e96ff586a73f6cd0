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
