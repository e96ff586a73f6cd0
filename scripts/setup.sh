#!/usr/bin/env bash
# Installs every build and test dependency of haloflag from Debian's packages.
# Idempotent: installs only what is missing, and runs `apt-get update` only then.
#   scripts/setup.sh            everything (host build, CUDA/HIP compile checks, MPICH build)
#   HALOFLAG_SETUP_SKIP=1       do nothing (machines without a package registry: see
#                               scripts/stage_offline_deps.sh)
set -euo pipefail

if [[ "${HALOFLAG_SETUP_SKIP:-0}" == "1" ]]; then
  echo "setup: skipped (HALOFLAG_SETUP_SKIP=1)"
  exit 0
fi

packages=(
  build-essential cmake pkg-config              # toolchain
  openmpi-bin libopenmpi-dev                     # default MPI
  mpich libmpich-dev                             # the second MPI CI builds against
  libgtest-dev googletest                        # tests
  nlohmann-json3-dev libcli11-dev                # benchmark output and arguments
  hipcc libamdhip64-dev rocm-device-libs         # the HIP build (compile and link only)
  clang                                          # sanitizer and fuzzing builds
  libclang-rt-dev                                # their runtimes: ASan, UBSan, libFuzzer
  llvm                                           # llvm-symbolizer: file:line in their reports
  python3-matplotlib                             # measured-vs-model plot (scripts/model_report.py)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
echo "setup: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
