#!/usr/bin/env bash
# examples/jacobi3d on 2 ranks, one GPU per rank (CUDA_VISIBLE_DEVICES from the node-local rank):
# the GPU correctness test, then per stencil (7, 27) and local size (32^3, 64^3, 128^3) a run
# checked bit for bit against the single-rank reference and a timed run of every variant
# (conventional, resident, stream).
# Writes into OUT_DIR: summary.txt (every table), jacobi3d_results.tar.gz (everything), and under
# OUT_DIR/runs/ machine.txt, commands.txt, one .txt (table) and .json per run, build and test logs.
#   scripts/bench/bench_jacobi3d.sh OUT_DIR [haloflag_jacobi3d options for the timed runs...]
# Builds the example with the CUDA backend in build-gpu/ (configured there first if needed;
# offline machines: carry .deps from scripts/stage_offline_deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench_jacobi3d.sh OUT_DIR [haloflag_jacobi3d options...]}
shift
out=$(mkdir -p "$out" && cd "$out" && pwd)
runs=$out/runs
mkdir -p "$runs"
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
ranks=2
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

program=$build/examples/jacobi3d/haloflag_jacobi3d
test_program=$build/examples/jacobi3d/tests/jacobi3d_reference_mpi_test
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-cuda}" \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$runs/configure.log" 2>&1 ||
    { tail -40 "$runs/configure.log"; exit 1; }
fi
# Always: an up-to-date build of these two targets costs seconds.
cmake --build "$build" -j "$(nproc)" --target haloflag_jacobi3d jacobi3d_reference_mpi_test \
  >"$runs/build.log" 2>&1 || { tail -60 "$runs/build.log"; exit 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "uncommitted changes:"; git -C "$root" status --short 2>/dev/null || true
  echo; nvidia-smi || true
  echo; nvidia-smi topo -m || true
  echo; nvcc --version || true
  echo; mpiexec --version || true
  echo; lscpu || true
} >"$runs/machine.txt" 2>&1

# One GPU per rank: each rank sees only the GPU of its node-local rank.
one_gpu_per_rank=(bash -c 'export CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0}; exec "$@"' one_gpu)
: >"$runs/commands.txt"
run() {  # run NAME COMMAND...: the command and its output into NAME.txt, the command into commands.txt
  local name=$1
  shift
  echo "\$ $*" | tee -a "$runs/commands.txt" | tee "$runs/$name.txt"
  "$@" 2>&1 | tee -a "$runs/$name.txt"
}

status=0
run gpu_reference_test env HALOFLAG_TEST_BACKEND=cuda HALOFLAG_TEST_MPI_THREAD=multiple \
  mpiexec -n $ranks "${one_gpu_per_rank[@]}" "$test_program" || status=1

for stencil in 7 27; do
  for local in 32 64 128; do
    run "check_s${stencil}_l${local}" mpiexec -n $ranks "${one_gpu_per_rank[@]}" "$program" \
      --backend cuda --variant all --stencil $stencil --local $local --iterations 20 --warmup 0 \
      --repeats 1 --check --json "$runs/check_s${stencil}_l${local}.json" || status=1
    run "jacobi3d_s${stencil}_l${local}" mpiexec -n $ranks "${one_gpu_per_rank[@]}" "$program" \
      --backend cuda --variant all --stencil $stencil --local $local --iterations 200 --warmup 2 \
      --repeats 20 --json "$runs/jacobi3d_s${stencil}_l${local}.json" "$@" || status=1
  done
done

cat "$runs"/jacobi3d_s*.txt "$runs"/check_s*.txt >"$out/summary.txt"
# Only a few files come back from a device run: everything in one archive as well.
tar -czf "$out/jacobi3d_results.tar.gz" -C "$out" runs
echo "results: $out (status $status)"
exit $status
