#!/usr/bin/env bash
# Builds a tree's CUDA programs here, for a device call to run without building them there: nvcc
# on gpu_jacobi.cu alone takes minutes of the call's limit. Run from anywhere:
#   scripts/device/prebuild.sh BUILD SOURCE TARGET...
# configures SOURCE (a tree) into BUILD, a folder of this repository (the GPU machine holds the
# repository at the same path, so the tests' paths that CMake wrote stay right), builds TARGETs,
# and copies what running them needs (their programs, shared libraries, CTest's files) into
# build-prebuilt/BUILD. Then it packs every build of build-prebuilt into one archive,
# .prebuilt/builds.tar.xz (a few MiB; a tree's programs share most of their code with another
# tree's, which one archive compresses once). The call carries .prebuilt, and
# device_call_common.sh's use_prebuilt unpacks each build into place. To leave a build out of
# the next archive, remove its folder from build-prebuilt. SOURCE must exist there at the same
# path (a record's call makes its patched trees there before it tests them).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
(($# >= 3)) || { echo "usage: $0 BUILD SOURCE TARGET..." >&2; exit 2; }
build=$1 source=$(cd "$2" && pwd)
shift 2
mkdir -p "$root/$build"  # for the configure log, before CMake makes the folder
cmake -S "$source" -B "$root/$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda \
  -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" \
  >"$root/$build/prebuild_configure.log"
cmake --build "$root/$build" -j "$(nproc)" --target "$@"
mkdir -p "$root/.prebuilt" "$root/build-prebuilt"
slim=$root/build-prebuilt/$build
rm -rf "$slim" && mkdir -p "$slim"
# The TARGETs' programs alone (the build may hold others from earlier), stripped: what a call
# carries counts towards the device tool's 64 MiB with the tree.
names=()
for target in "$@"; do names+=(-o -name "$target"); done
(cd "$root/$build" &&
  find . -type f \( -name CTestTestfile.cmake -o -name '*.so*' "${names[@]}" \) \
    ! -path '*/CMakeFiles/*' -print0 | xargs -0 cp --parents -t "$slim")
find "$slim" -type f ! -name '*.cmake' ! -name '*.so*' -exec strip --strip-unneeded {} +
# TREE names what was built: this repository's commit, with a word where the sources were not
# that commit alone. (A copy made elsewhere has no commit of its own: its record names it.)
{
  if [[ $source == "$root" ]]; then
    git -C "$root" log --oneline -1 | cut -c1-60
    [[ -z $(git -C "$root" status --porcelain --untracked-files=no) ]] ||
      echo "with changes not committed"
  else
    echo "a copy outside this repository"
  fi
  echo "sources: $source"
} >"$slim/TREE"
# xz's largest window (64 MiB) finds the programs' shared GPU code again: half the size of -6.
rm -f "$root"/.prebuilt/*.tar.xz
XZ_OPT=-9 tar -C "$root/build-prebuilt" -cJf "$root/.prebuilt/builds.tar.xz" .
held=$(find "$root/build-prebuilt" -mindepth 1 -maxdepth 1 -printf '%f ')
echo "prebuilt $build from $source; .prebuilt/builds.tar.xz" \
  "($(du -h "$root/.prebuilt/builds.tar.xz" | cut -f1)) holds: $held"
