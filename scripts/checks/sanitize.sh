#!/usr/bin/env bash
# The host tests under AddressSanitizer and UndefinedBehaviorSanitizer (docs/reliability.md):
# builds the host backend with clang, -fsanitize=address,undefined -fno-sanitize-recover=all, in
# its own build folder and runs every host test with CTest, the MPI ones under mpiexec.
#   scripts/checks/sanitize.sh [BUILD_DIR]          default build-asan/
# Environment: HALOFLAG_SANITIZE (default address,undefined), HALOFLAG_SANITIZE_EXCLUDE (a CTest
# regular expression of tests to leave out, e.g. '_np8$' for the 8-rank runs),
# HALOFLAG_SANITIZE_GTEST_FILTER (a GoogleTest filter for every test, e.g. to leave out cases
# that only repeat others on larger data), HALOFLAG_SANITIZE_CMAKE_ARGS (extra configure arguments: CI adds -DHALOFLAG_FUZZ=ON so that
# scripts/checks/fuzz.sh reuses the build, and builds against MPICH), HALOFLAG_JOBS.
# Every sanitizer report ends its process with a failure, so any report fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-asan}
jobs=${HALOFLAG_JOBS:-$(nproc)}

"$root/scripts/setup.sh" --all
# -O1 without NDEBUG: assertions on, tests still quick. Line tables only: every frame of a report
# still names its function, file and line, and the build (CI's longest) compiles and links less
# than with full debug information. The CTest backstop is longer than usual: instrumented ranks
# oversubscribed on few cores run ~3x slower.
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_COMPILER=clang++ \
  -DHALOFLAG_GPU=none \
  -DHALOFLAG_SANITIZE="${HALOFLAG_SANITIZE:-address,undefined}" -DHALOFLAG_TEST_TIMEOUT=900 \
  ${HALOFLAG_SANITIZE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"

# The installed-package tests link outside projects, built without the sanitizers, against the
# instrumented libraries, which cannot link; they check packaging, which the plain build covers.
exclude='^package_'
[[ -n ${HALOFLAG_SANITIZE_EXCLUDE:-} ]] && exclude="$exclude|$HALOFLAG_SANITIZE_EXCLUDE"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export GTEST_FILTER=${HALOFLAG_SANITIZE_GTEST_FILTER:-*}
asan_options=check_initialization_order=1:detect_stack_use_after_return=1
status=0
cd "$build"
# Pass 1, the MPI tests, without leak checking: Open MPI loads its components with dlopen and
# unloads them in MPI_Finalize, and LeakSanitizer then reports thousands of allocations those
# components kept, with stacks that end in "<unknown module>", which no suppression can name
# and which take minutes to symbolise. Every other AddressSanitizer check stays on.
echo "=== sanitize: MPI tests (label mpi), leak checking off"
ASAN_OPTIONS=$asan_options:detect_leaks=0 \
  ctest --output-on-failure -j "$jobs" -L mpi -E "$exclude" || status=1
# Pass 2, every other test, leaks checked. Fixtures the MPI tests set up (calibration files) are
# not set up again.
echo "=== sanitize: other tests, leak checking on"
ASAN_OPTIONS=$asan_options:detect_leaks=1 \
  ctest --output-on-failure -j "$jobs" -LE mpi -E "$exclude" --fixture-exclude-setup '.*' || status=1
exit $status
