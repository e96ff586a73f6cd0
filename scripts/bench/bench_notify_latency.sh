#!/usr/bin/env bash
# notify_latency on a GPU machine: the paper's Table 1 (one read + one write of a flag in pinned
# host memory, CPU side and GPU side), flag round trip and one-way latencies, and empty kernel /
# 1-node graph launch + synchronise in the same run.
#   scripts/bench/bench_notify_latency.sh OUT_DIR [notify_latency options except --json...]
# With no options it runs `notify_latency --backend cuda` (never a silent fall-back to the host).
# Writes into OUT_DIR:
#   notify_latency.json  the report, every sample included    notify_latency.txt  the table
#   notify_latency.md    the tables as markdown, for docs/results/<machine>/
#   machine.txt          host, kernel, CPU, nvidia-smi (GPU, driver, topology), nvcc, cmake
#   build.log
# Builds into build-gpu/ (HALOFLAG_BUILD_DIR to change) with -DHALOFLAG_GPU=${HALOFLAG_GPU:-cuda};
# offline machines: carry .deps from scripts/stage_offline_deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench_notify_latency.sh OUT_DIR [notify_latency options...]}
shift
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
backend=${HALOFLAG_GPU:-cuda}
mkdir -p "$out"
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# Configure once, then build incrementally every time, so a stale binary is never measured.
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="$backend" \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log" >&2; exit 1; }
fi
cmake --build "$build" -j "$(nproc)" --target notify_latency >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log" >&2; exit 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //' || true)"
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.max.sm,power.limit \
    --format=csv 2>/dev/null || echo "nvidia-smi: not available"
  nvidia-smi topo -m 2>/dev/null || true
  nvcc --version 2>/dev/null | tail -2 || true
  cmake --version | head -1
} >"$out/machine.txt"

args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--backend "$backend")
command=("$build/bench/notify_latency/notify_latency" "${args[@]}" --json "$out/notify_latency.json")
echo "\$ ${command[*]}" | tee "$out/notify_latency.txt"
"${command[@]}" 2>&1 | tee -a "$out/notify_latency.txt"

if command -v python3 >/dev/null; then
  python3 "$root/scripts/figures/plot_notify_latency.py" "$out/notify_latency.json" \
    -o "$out/notify_latency.md"
  echo "wrote $out/notify_latency.md"
else
  echo "python3 not found: render the table later with scripts/figures/plot_notify_latency.py" >&2
fi
