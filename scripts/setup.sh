#!/usr/bin/env bash
# Installs haloflag's dependencies from Debian's packages. Idempotent: installs only what is
# missing, and runs `apt-get update` only then.
#   scripts/setup.sh            what the main job needs (scripts/run.sh): compiler, CMake,
#                               Open MPI, JSON and command-line libraries
#   scripts/setup.sh --all      also what the tests and CI need (scripts/test.sh): GoogleTest,
#                               MPICH, hipcc for the HIP build, clang and its sanitizer and
#                               fuzzing runtimes, matplotlib for the report plots, doxygen for
#                               the API reference (docs/Doxyfile); and lizard, from PyPI, for
#                               the function-length check (scripts/checks/check_function_length.sh),
#                               in a virtual environment at .tools/lizard/ (the system Python
#                               stays as Debian ships it); and the Python package's build
#                               and test tools (docs/python.md): Debian's python3 with its
#                               NumPy, mpi4py (built against Debian's Open MPI, the MPI the
#                               libraries use) and pytest, plus nanobind and scikit-build-core
#                               from PyPI, in a virtual environment at .tools/python/ that the
#                               CMake build finds by itself (HALOFLAG_PYTHON)
#   HALOFLAG_SETUP_SKIP=1       do nothing (machines without a package registry: see
#                               scripts/stage_offline_deps.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lizard_version=1.24.3
nanobind_version=3.1.0
scikit_build_core_version=1.1.2

if [[ "${HALOFLAG_SETUP_SKIP:-0}" == "1" ]]; then
  echo "setup: skipped (HALOFLAG_SETUP_SKIP=1)"
  exit 0
fi

packages=(
  build-essential cmake pkg-config              # toolchain
  openmpi-bin libopenmpi-dev                     # default MPI
  nlohmann-json3-dev libcli11-dev                # benchmark output and arguments
)
case "${1:-}" in
  "") ;;
  --all)
    packages+=(
      libgtest-dev googletest                    # tests
      mpich libmpich-dev                         # the second MPI CI builds against
      hipcc libamdhip64-dev rocm-device-libs     # the HIP build (compile and link only)
      clang                                      # sanitizer and fuzzing builds
      libclang-rt-dev                            # their runtimes: ASan, UBSan, libFuzzer
      llvm                                       # llvm-symbolizer: file:line in their reports
      python3-matplotlib                         # measured-vs-model plot (scripts/tables/model_report.py)
      doxygen                                    # API reference, CI's undocumented-declaration check
      python3-venv                               # lizard's virtual environment (below)
      python3-dev python3-numpy python3-mpi4py   # the Python package (python/): build and
      python3-pytest                             # tests, in .tools/python (below)
    )
    ;;
  *)
    echo "setup: unknown argument '$1' (expected nothing or --all)" >&2
    exit 2
    ;;
esac

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#packages[@]} packages present"
else
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done"
fi

# lizard is on PyPI only. Debian's python3 refuses pip installs into the system (PEP 668), so it
# goes into its own virtual environment, ignored by git; reinstalled only when the version differs.
if [[ "${1:-}" == "--all" ]]; then
  venv=$root/.tools/lizard
  if [[ "$("$venv/bin/lizard" --version 2>/dev/null)" == "$lizard_version" ]]; then
    echo "setup: lizard $lizard_version present"
  else
    echo "setup: installing lizard $lizard_version in ${venv#"$root"/}"
    python3 -m venv --clear "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "lizard==$lizard_version"
  fi
fi

# The Python package is built and tested with Debian's python3, whose mpi4py Debian built against
# the same Open MPI as the libraries; a virtual environment that sees those packages adds nanobind
# and scikit-build-core, which Debian 12 lacks. /usr/bin/python3 by name: a python3 earlier on
# PATH (pyenv) would lack Debian's mpi4py.
if [[ "${1:-}" == "--all" ]]; then
  venv=$root/.tools/python
  wanted="nanobind==$nanobind_version scikit_build_core==$scikit_build_core_version"
  have=$("$venv/bin/python" -c 'import nanobind, scikit_build_core as s; print(nanobind.__version__, s.__version__)' 2>/dev/null || true)
  if [[ "$have" == "$nanobind_version $scikit_build_core_version" ]]; then
    echo "setup: python environment present (${venv#"$root"/}: $wanted)"
  else
    echo "setup: making the python environment ${venv#"$root"/} ($wanted)"
    /usr/bin/python3 -m venv --clear --system-site-packages "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "nanobind==$nanobind_version" \
      "scikit-build-core==$scikit_build_core_version"
  fi
fi
