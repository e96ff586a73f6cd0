#!/usr/bin/env bash
# Fuzzes the readers of text input with libFuzzer (docs/reliability.md): builds the targets of
# tests/fuzz with clang, AddressSanitizer and UndefinedBehaviorSanitizer in its own build folder
# and runs each one for SECONDS, starting from its seeds (the shipped files) and dictionary.
#   scripts/checks/fuzz.sh [SECONDS]          default 60 per target
# Environment: HALOFLAG_FUZZ_BUILD (default build-fuzz/), HALOFLAG_FUZZ_TARGETS (default
# "config_parser params_file pack_unpack_table"), HALOFLAG_FUZZ_INPUT_TIMEOUT (seconds one input
# may take before it counts as a hang, default 10), HALOFLAG_JOBS.
# Exit status: 0 when no target found anything; 1 when any found a crash, a broken contract,
# a hang, a leak or a memory blow-up. The input is kept in <build>/findings/<target>/ and the
# summary says how to replay it. The grown corpus stays in <build>/corpus/<target>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
build=${HALOFLAG_FUZZ_BUILD:-$root/build-fuzz}
read -r -a targets <<<"${HALOFLAG_FUZZ_TARGETS:-config_parser params_file pack_unpack_table}"
input_timeout=${HALOFLAG_FUZZ_INPUT_TIMEOUT:-10}
jobs=${HALOFLAG_JOBS:-$(nproc)}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS must be a positive whole number (got '$seconds')" >&2
  exit 2
fi

"$root/scripts/setup.sh" --all
# Host backend only: the readers know nothing of GPUs. RelWithDebInfo keeps stacks readable.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DHALOFLAG_GPU=none -DHALOFLAG_FUZZ=ON >/dev/null
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

failed=()
summary=()
for target in "${targets[@]}"; do
  binary=$build/tests/fuzz/fuzz_$target
  corpus=$build/corpus/$target
  findings=$build/findings/$target
  log=$build/logs/$target.log
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  while IFS= read -r seed; do
    [[ -n "$seed" ]] && cp "$seed" "$corpus/"
  done <"$binary.seeds"
  read -r -a options <"$binary.options"
  echo "=== fuzz: $target for $seconds s (log: $log)"
  status=0
  # -max_len: mutations of short inputs find more per second; longer seeds are cut to it.
  # -rss_limit_mb: a reader that needs more than 2 GiB for a 4 KiB input is a finding.
  "$binary" "${options[@]}" -max_total_time="$seconds" -timeout="$input_timeout" \
    -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings/" \
    "$corpus" >"$log" 2>&1 || status=$?
  # The last status line: "#<runs> DONE cov: <edges> ft: <features> corp: <inputs>/<size> ...".
  stats=$(awk '/^#[0-9]+[[:space:]]/ && /cov:/ {line = $0}
               END {sub(/^#/, "", line); sub(/[[:space:]]+[A-Z]+[[:space:]]+/, " runs, ", line); print line}' "$log")
  if [[ $status -eq 0 ]]; then
    summary+=("$target: ok: ${stats}")
  else
    failed+=("$target")
    summary+=("$target: FOUND a problem (libFuzzer exit $status); inputs kept:")
    for artifact in "$findings"/*; do
      [[ -e "$artifact" ]] && summary+=("    $artifact   (replay: $binary $artifact)")
    done
    echo "--- last lines of $log:"
    tail -n 40 "$log"
  fi
done

echo
echo "=== fuzz summary ($seconds s per target)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]}: fix the reader, then add the input to tests/fuzz/regressions/<target>/" >&2
  exit 1
fi
