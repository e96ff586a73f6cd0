#!/usr/bin/env bash
# compute-sanitizer over the GPU tests, on a machine with an NVIDIA GPU (docs/reliability.md).
# Builds the CUDA backend's GPU tests in build-gpu/ (offline: header-only deps from .deps/) and
# runs every GPU test (CTest label "gpu", or "gpu"/"cuda" in its name) under each tool:
# single-process tests as `compute-sanitizer ... test`, MPI tests as
# `mpiexec -n N compute-sanitizer ... test`, so each rank runs under its own sanitizer.
#   scripts/gpu/gpu_sanitize.sh OUT_DIR [TOOL...]     tools: memcheck racecheck synccheck (default: all)
# Writes OUT_DIR/build.log, OUT_DIR/<tool>.log (every test's output with the tool's reports, one
# file per tool) and OUT_DIR/summary.txt (one line per tool and test: errors, warnings, status,
# seconds). Exit status 1 when a tool reports any error or warning, or a test fails, skips (no
# GPU seen) or runs past its time limit under a tool.
#
# Workload: the tools slow GPU code down 10-100x, and racecheck also checks every shared-memory
# access of every thread, so by default each test runs a bounded subset (GoogleTest filters,
# below) and one bounded halo_bench run launches every kernel kind with small grids:
#   memcheck, synccheck: the ping-pong test in full; the strategies test's geometry cases (7
#     small decompositions x 50 exchanges x every strategy), its deadline case and set-up checks,
#     without the shipped 200/400/800-cube configs (large fields, minutes under the tools).
#   racecheck: the ping-pong test less its 100000 epochs (its deadline and abort cases still
#     launch the flag kernels); the strategies test's geometry cases for comb_fused, comb_graph,
#     stream_base and stream_notify only: stacked_notify's cooperative grid (every block the GPU
#     can hold, 1024 threads each, meeting at grid barriers) and the resident kernels polling
#     between exchanges ran past 50 s per test on an H100 under racecheck.
#   every tool: halo_bench_bounded: `mpiexec -n 1 halo_bench --strategy all` on a 12-cube with
#     128-thread blocks and a 4-block stacked grid, 3 verified + 3 timed + 2 traced exchanges per
#     strategy: fused, graph, per-message, stream notify, stacked cooperative and resident
#     kernels, each exchange verified (exit 1 on a wrong ghost cell).
# Environment: HALOFLAG_GPU_SANITIZE_FULL=1 runs every case under every tool;
# HALOFLAG_GPU_SANITIZE_TIMEOUT seconds per test and tool (default 240);
# HALOFLAG_GPU_SANITIZE_BUDGET seconds for the whole script, build included (default: none):
# each run gets at most what is left, and runs that find none left are listed as not run, so a
# machine lent for a fixed time still returns a complete summary; HALOFLAG_BUILD_DIR (default
# build-gpu/); HALOFLAG_JOBS; CMAKE_CUDA_ARCHITECTURES (default 90).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_sanitize.sh OUT_DIR [memcheck|racecheck|synccheck ...]}
shift
tools=("$@")
[[ ${#tools[@]} -eq 0 ]] && tools=(memcheck racecheck synccheck)
for tool in "${tools[@]}"; do
  [[ $tool =~ ^(memcheck|racecheck|synccheck)$ ]] || {
    echo "gpu_sanitize.sh: unknown tool '$tool' (memcheck, racecheck or synccheck)" >&2
    exit 2
  }
done
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
jobs=${HALOFLAG_JOBS:-$(nproc)}
time_limit=${HALOFLAG_GPU_SANITIZE_TIMEOUT:-240}
budget=${HALOFLAG_GPU_SANITIZE_BUDGET:-0}
full=${HALOFLAG_GPU_SANITIZE_FULL:-0}
mkdir -p "$out"
out=$(cd "$out" && pwd)

export PATH=/usr/local/cuda/bin:$PATH
sanitizer=$(command -v compute-sanitizer || true)
if [[ -z $sanitizer && -x /usr/local/cuda/compute-sanitizer/compute-sanitizer ]]; then
  sanitizer=/usr/local/cuda/compute-sanitizer/compute-sanitizer
fi
if [[ -z $sanitizer ]]; then
  echo "gpu_sanitize.sh: compute-sanitizer not found (looked on PATH and in /usr/local/cuda)" >&2
  exit 2
fi

# -lineinfo: reports name the source line of a device access. RelWithDebInfo: host stacks too.
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  "$sanitizer" --version | tail -1
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHALOFLAG_GPU=cuda \
    -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" -DCMAKE_CUDA_FLAGS=-lineinfo \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr"
  cmake -DBUILD_DIR="$build" -DOUT="$build/gpu_test_targets.txt" -DMODE=targets \
    -P "$root/scripts/gpu/gpu_test_commands.cmake"
  mapfile -t targets < <(sort -u "$build/gpu_test_targets.txt")
  echo "GPU test targets: ${targets[*]}"
  cmake --build "$build" -j "$jobs" --target "${targets[@]}" halo_bench
  cmake -DBUILD_DIR="$build" -DOUT="$build/gpu_test_commands.txt" -DMODE=commands \
    -P "$root/scripts/gpu/gpu_test_commands.cmake"
  # The bounded run of every kernel kind, as one more line of that list (name, directory, the
  # environment CTest gives the MPI tests: Open MPI refuses root without it, command).
  bounded=(halo_bench_bounded "$build" 2 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    "$(command -v mpiexec)" -n 1 "$build/bench/halo_bench"
    --backend cuda --strategy all --size 12 --vars 2 --warmup 0 --verify 3 --iterations 3
    --trace-exchanges 2 --trace-kept 1 --fused-threads 128 --message-threads 128
    --stacked-threads 128 --stacked-blocks 4 --json '' --timeout 120)
  (IFS=$'\x1f'; echo "${bounded[*]}") >>"$build/gpu_test_commands.txt"
} >"$out/build.log" 2>&1 || {
  tail -n 30 "$out/build.log"
  echo "gpu_sanitize.sh: build failed, see $out/build.log" >&2
  exit 1
}

# The GoogleTest filter of a test executable under a tool (empty: every case).
filter_for() {
  local tool=$1 executable=$2
  [[ $full == 1 ]] && return 0
  case "$executable:$tool" in
    notify_gpu_pingpong_test:racecheck) echo "-*PingPong100kEpochs*" ;;
    halo_exchange_strategies_mpi_test:racecheck)
      echo "-*ShippedConfigsStayCorrectOverManyExchanges*:*GeometriesStayCorrectOverManyExchanges/stacked_notify:*GeometriesStayCorrectOverManyExchanges/resident" ;;
    halo_exchange_strategies_mpi_test:*) echo "-*ShippedConfigsStayCorrectOverManyExchanges*" ;;
  esac
}

summary=$out/summary.txt
{
  echo "compute-sanitizer over the GPU tests of $build ($(date -u +%FT%TZ))"
  echo "sanitizer: $("$sanitizer" --version | tail -1)"
  echo "workload: $([[ $full == 1 ]] && echo "full" || echo "bounded (see scripts/gpu/gpu_sanitize.sh)"), ${time_limit} s per test and tool"
  printf '%-10s %-40s %8s %8s %-28s %7s  %s\n' tool test errors warnings status seconds filter
} >"$summary"
failures=0
sep=$'\x1f'
for tool in "${tools[@]}"; do
  log=$out/$tool.log
  : >"$log"
  options=(--tool "$tool" --print-limit 50 --launch-timeout 120)
  [[ $tool == memcheck ]] && options+=(--leak-check full)
  while IFS="$sep" read -r -a fields; do
    name=${fields[0]}
    directory=${fields[1]}
    environment=("${fields[@]:3:${fields[2]}}")
    command=("${fields[@]:$((3 + fields[2]))}")
    # The sanitizer goes right before the test executable: the first argument inside the build.
    for ((i = 0; i < ${#command[@]}; ++i)); do
      [[ ${command[i]} == "$build"/* ]] && break
    done
    # A test picked by its name whose command starts no program of the build directly (a CLI
    # test run through cmake -P, say) has nothing for the sanitizer to wrap.
    if ((i == ${#command[@]})); then
      printf '%-10s %-40s %8s %8s %-28s %7s  %s\n' "$tool" "$name" - - "not run: no build program" 0 \
        - | tee -a "$summary"
      continue
    fi
    executable=$(basename "${command[i]}")
    filter=$(filter_for "$tool" "$executable")
    wrapped=("${command[@]:0:i}" "$sanitizer" "${options[@]}" "${command[@]:i}")
    # Processes that each end with a report: the launcher's -n/-np, else one.
    processes=1
    for ((j = 0; j + 1 < i; ++j)); do
      if [[ ${command[j]} =~ ^-(n|np)$ ]]; then processes=${command[j + 1]}; fi
    done
    echo "===== $tool: $name (GTEST_FILTER='${filter:-*}')" >>"$log"
    echo "\$ ${wrapped[*]}" >>"$log"
    limit=$time_limit
    if [[ $budget -gt 0 ]]; then
      # 30 s kept back for the kill grace period and the summary.
      left=$((budget - SECONDS - 30))
      if [[ $left -lt 10 ]]; then
        failures=$((failures + 1))
        printf '%-10s %-40s %8s %8s %-28s %7s  %s\n' "$tool" "$name" - - "NOT RUN: budget spent" 0 \
          "${filter:-*}" | tee -a "$summary"
        continue
      fi
      [[ $left -lt $limit ]] && limit=$left
    fi
    started=$SECONDS
    status=0
    # In a session of its own, so that whatever outlives a time-out (mpiexec puts its ranks in
    # process groups of their own) is found and ended afterwards. </dev/null: mpiexec forwards
    # stdin to rank 0, which would swallow the list of tests.
    (cd "$directory" && exec setsid env "${environment[@]}" GTEST_FILTER="${filter:-*}" \
      timeout --kill-after=20 "$limit" "${wrapped[@]}") </dev/null >"$out/.run.log" 2>&1 &
    session=$!
    wait "$session" || status=$?
    pkill -KILL -s "$session" 2>/dev/null || true
    seconds=$((SECONDS - started))
    cat "$out/.run.log" >>"$log"
    # One summary per sanitized process: "ERROR SUMMARY: N errors" (memcheck, synccheck) or
    # "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)" (racecheck, no other).
    summaries=$(grep -cE "(ERROR|RACECHECK) SUMMARY:" "$out/.run.log" || true)
    errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' \
      -e 's/.*RACECHECK SUMMARY:.*(\([0-9][0-9]*\) error.*/\1/p' "$out/.run.log" |
      awk '{sum += $1} END {print sum + 0}')
    warnings=$(sed -n 's/.*RACECHECK SUMMARY:.* \([0-9][0-9]*\) warning.*/\1/p' "$out/.run.log" |
      awk '{sum += $1} END {print sum + 0}')
    if [[ $status -eq 124 || $status -eq 137 ]]; then
      verdict="TIMEOUT after ${limit}s"
    elif [[ $status -eq 77 ]]; then
      verdict="SKIPPED: no GPU seen"
    elif [[ $status -ne 0 ]]; then
      verdict="FAILED (exit $status)"
    elif [[ $summaries -lt $processes ]]; then
      verdict="INCOMPLETE ($summaries of $processes reports)"
    elif [[ $errors -gt 0 || $warnings -gt 0 ]]; then
      verdict="REPORTED"
    else
      verdict="clean"
    fi
    [[ $verdict == clean ]] || failures=$((failures + 1))
    printf '%-10s %-40s %8s %8s %-28s %7s  %s\n' "$tool" "$name" "$errors" "$warnings" "$verdict" \
      "$seconds" "${filter:-*}" | tee -a "$summary"
  done <"$build/gpu_test_commands.txt"
done
rm -f "$out/.run.log"

if [[ $failures -gt 0 ]]; then
  echo "gpu_sanitize: $failures run(s) not clean; reports in $out/<tool>.log" | tee -a "$summary" >&2
  exit 1
fi
echo "gpu_sanitize: every GPU test clean under ${tools[*]}" | tee -a "$summary"
