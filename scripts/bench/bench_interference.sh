#!/usr/bin/env bash
# interference on a GPU machine: the paper's section 4.3 and Figs. 6-11. Two ranks under mpiexec
# on this one machine; rank 0 times MPI_Send of one buffer in pinned host memory while its GPU
# writes pinned host memory (SSB, PSB, PCB, P2AB, in stream and stacked form, and concurrent
# host<->device copies), rank 1 receives. Sizes 1 KiB to 64 MiB by default.
#   scripts/bench/bench_interference.sh OUT_DIR [interference options except --json...]
# With no options it runs `interference --backend cuda` (never a silent fall-back to the host).
# Writes into OUT_DIR:
#   interference.json    the report, every sample included   interference.txt  the table
#   interference.md      medians and ratios as markdown, for docs/results/<machine>/
#   interference_stream.png, interference_stacked.png, interference_slowdown.png  (matplotlib)
#   machine.txt          host, kernel, CPU, nvidia-smi (GPU, driver, topology), nvcc, MPI, cmake
#   build.log
#   interference_results.tar.gz   all of the above in one file (GPU machines return few files)
# Builds into build-gpu/ (HALOFLAG_BUILD_DIR to change) with -DHALOFLAG_GPU=${HALOFLAG_GPU:-cuda};
# offline machines: carry .deps from scripts/stage_offline_deps.sh. mpiexec gets
# ${HALOFLAG_MPIEXEC_ARGS:---bind-to none}: unbound ranks, so the sender's helper threads (copy
# loop, kernel polling) do not share one core with its MPI_Send.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench_interference.sh OUT_DIR [interference options...]}
shift
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
backend=${HALOFLAG_GPU:-cuda}
read -r -a mpiexec_args <<<"${HALOFLAG_MPIEXEC_ARGS:---bind-to none}"
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
cmake --build "$build" -j "$(nproc)" --target interference >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log" >&2; exit 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //' || true)"
  echo "cores: $(nproc)"
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,clocks.max.sm,power.limit \
    --format=csv 2>/dev/null || echo "nvidia-smi: not available"
  nvidia-smi topo -m 2>/dev/null || true
  nvcc --version 2>/dev/null | tail -2 || true
  mpiexec --version 2>/dev/null | head -1 || true
  cmake --version | head -1
} >"$out/machine.txt"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--backend "$backend")
command=(mpiexec -n 2 "${mpiexec_args[@]}" "$build/bench/interference/interference" "${args[@]}"
         --json "$out/interference.json")
echo "\$ ${command[*]}" | tee "$out/interference.txt"
status=0
"${command[@]}" 2>&1 | tee -a "$out/interference.txt" || status=$?

# The figures need matplotlib; pyenv's python3 may lack it where Debian's has it.
python=python3
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2>/dev/null; then python=$candidate; break; fi
done
if [[ -f $out/interference.json ]] && command -v "$python" >/dev/null; then
  "$python" "$root/scripts/figures/plot_interference.py" "$out/interference.json" "$out" ||
    echo "plot_interference.py exited with $? (see above); draw later with it" >&2
fi

files=()
for name in interference.json interference.txt interference.md interference_stream.png \
            interference_stacked.png interference_slowdown.png machine.txt build.log; do
  [[ -f $out/$name ]] && files+=("$name")
done
tar -czf "$out/interference_results.tar.gz" -C "$out" "${files[@]}"
echo "wrote $out/interference_results.tar.gz (${files[*]})"
exit "$status"
