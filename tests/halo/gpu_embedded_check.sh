#!/usr/bin/env bash
# On a GPU machine (offline: header-only deps carried in .deps/): builds the CUDA backend and
# runs the embedded-exchange test (docs/embedding.md) with a real __global__ user kernel at 1
# and 2 ranks, the same binary's host-backend cases, and the engine's own GPU strategy test at
# 2 ranks (the kernel runner now takes its groups from kernels/gpu_groups.hpp):
#   tests/halo/gpu_embedded_check.sh OUT_DIR
# Writes OUT_DIR/gpu_embedded.tar.gz (machine.txt, build.log, one log per step, summary.txt)
# and exits 1 when any step failed or a GPU case was skipped. HALOFLAG_BUILD_DIR (default
# build-gpu-embedded/), HALOFLAG_GPU (cuda or hip, default cuda).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_embedded_check.sh OUT_DIR}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu-embedded}
backend=${HALOFLAG_GPU:-cuda}
logs=$out/gpu_embedded
mkdir -p "$logs"
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv 2>/dev/null ||
    echo "nvidia-smi: not available"
  nvcc --version 2>/dev/null | tail -2
  mpirun --version 2>/dev/null | head -1
  cmake --version | head -1
  echo "tree: $(git -C "$root" rev-parse --short HEAD 2>/dev/null) plus working-tree changes"
} >"$logs/machine.txt" 2>&1

summary=$logs/summary.txt
: >"$summary"
status=0
# step NAME COMMAND...: runs it with its output in NAME.log and a line in summary.txt.
step() {
  local name=$1
  shift
  local started=$SECONDS
  "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  printf '%-34s rc=%-3s %4ss\n' "$name" "$rc" "$((SECONDS - started))" | tee -a "$summary"
  [[ $rc -eq 0 ]] || status=1
  return $rc
}
# A GPU step whose cases skipped did not test anything: not a pass here.
require_no_skip() {
  if grep -q "SKIPPED \]" "$logs/$1.log"; then
    echo "$1: a case skipped (no GPU seen?), which is not a pass here" | tee -a "$summary"
    status=1
  fi
}

targets=(halo_embedded_exchange_mpi_test halo_exchange_strategies_mpi_test)
if step build bash -c "cmake -S '$root' -B '$build' -DCMAKE_BUILD_TYPE=Release \
      -DHALOFLAG_GPU=$backend -DCMAKE_PREFIX_PATH='$root/.deps/root/usr' &&
    cmake --build '$build' -j $(nproc) --target ${targets[*]}"; then
  binary=$build/tests/halo/halo_embedded_exchange_mpi_test
  for np in 1 2; do
    step embedded_${backend}_np$np timeout 300 mpiexec -n $np \
      -x HALOFLAG_TEST_BACKEND="$backend" "$binary" --gtest_filter='*Gpu*'
    require_no_skip embedded_${backend}_np$np
  done
  step embedded_host_np2 timeout 300 mpiexec -n 2 "$binary"
  # The engine's kernels, whose groups moved into kernels/gpu_groups.hpp.
  step strategies_${backend}_np2 timeout 420 mpiexec -n 2 -x HALOFLAG_TEST_BACKEND="$backend" \
    "$build/tests/halo/halo_exchange_strategies_mpi_test" \
    --gtest_filter='-*ShippedConfigsStayCorrectOverManyExchanges*'
  require_no_skip strategies_${backend}_np2
fi

tar -czf "$out/gpu_embedded.tar.gz" -C "$out" gpu_embedded
echo "wrote $out/gpu_embedded.tar.gz"
exit $status
