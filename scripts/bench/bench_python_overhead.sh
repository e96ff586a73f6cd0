#!/usr/bin/env bash
# Issue 48's target: what a Python loop of Exchange.run() costs over the same loop in C++, global
# shape (50, 50, 100) (z, y, x) on 2 ranks, strategy resident, one float64 variable, periodic.
# Rounds alternate C++ and Python (python/bench/run_loop.cpp and run_loop.py), each a new
# Exchange with its warm-up exchanges then ITERATIONS timed ones (the slowest rank's mean).
#   scripts/bench/bench_python_overhead.sh OUT_DIR [BUILD_DIR]     (BUILD_DIR: build-py)
# OUT_DIR gets raw.jsonl (every round of both), summary.txt (medians, difference, target) and
# machine.txt. On a GPU build each rank takes its own GPU (halo::bind_gpu); the Python loop uses
# CuPy, else PyTorch. Environment: BACKEND=auto|host (auto), ITERATIONS (2000), WARMUP (200),
# ROUNDS (7 of each), RANKS (2), MPIEXEC_ARGS (extra mpiexec arguments), PYTHON (default: the
# interpreter BUILD_DIR was configured with).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: scripts/bench/bench_python_overhead.sh OUT_DIR [BUILD_DIR]}
build=${2:-$root/build-py}
backend=${BACKEND:-auto} iterations=${ITERATIONS:-2000} warmup=${WARMUP:-200}
rounds=${ROUNDS:-7} ranks=${RANKS:-2}
python=${PYTHON:-$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")}
loop=$build/python/haloflag_run_loop
[[ -x $loop && -d $build/python/haloflag ]] || {
  echo "bench_python_overhead: $build has no Python package or haloflag_run_loop; build it with" \
       "cmake --build $build --target haloflag_python haloflag_run_loop" >&2
  exit 2
}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONPATH=$build/python
# shellcheck disable=SC2206
mpiexec=(mpiexec --oversubscribe -n "$ranks" ${MPIEXEC_ARGS:-})
shape=(50 50 100)
{
  echo "date: $(date -u +%FT%TZ)"; echo "host: $(hostname)"; echo "commit: $(git -C "$root" rev-parse HEAD)"
  echo "python: $("$python" --version 2>&1) ($python)"; echo "mpi: $(mpiexec --version 2>&1 | head -1)"
  command -v nvidia-smi >/dev/null && nvidia-smi -L
  echo "command: $0 $*  BACKEND=$backend ITERATIONS=$iterations WARMUP=$warmup ROUNDS=$rounds RANKS=$ranks"
} > "$out/machine.txt"
: > "$out/raw.jsonl"
for ((r = 0; r < rounds; ++r)); do
  "${mpiexec[@]}" "$loop" "${shape[@]}" "$iterations" "$warmup" 1 "$backend" | tee -a "$out/raw.jsonl"
  "${mpiexec[@]}" "$python" "$root/python/bench/run_loop.py" "${shape[@]}" "$iterations" "$warmup" 1 \
    "$backend" | tee -a "$out/raw.jsonl"
done
"$python" - "$out" <<'PY' | tee "$out/summary.txt"
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1] + "/raw.jsonl")]
median = {loop: statistics.median(r["us_per_exchange"] for r in rows if r["loop"] == loop)
          for loop in ("cpp", "python")}
backends = sorted({r["backend"] for r in rows})
extra = median["python"] - median["cpp"]
print(f"global shape (50, 50, 100), {rows[0]['ranks']} ranks, strategy resident, backend {', '.join(backends)}")
print(f"C++ loop of run():    {median['cpp']:9.3f} us per exchange (median of {sum(r['loop'] == 'cpp' for r in rows)} rounds)")
print(f"Python loop of run(): {median['python']:9.3f} us per exchange (median of {sum(r['loop'] == 'python' for r in rows)} rounds)")
print(f"Python costs {extra:+.3f} us per exchange: target (at most +2 us) {'met' if extra <= 2.0 else 'MISSED'}")
PY
