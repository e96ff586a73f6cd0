#!/usr/bin/env bash
# The stencil codes at every size, in one device call (issue "stencil codes win at every size"):
#   - examples/jacobi2d at nx = ny = 1024, 4096, 16384, the norm every iteration and every 100,
#     1000 iterations, beside the peer (NVIDIA's multi-gpu-programming-models, built by
#     scripts/bench/build_jacobi_peer.sh into PEER_BUILD) on the same command lines;
#   - examples/jacobi3d at 32^3, 64^3, 128^3 and 256^3 cells per rank, 7 and 27 points, every
#     variant.
# One rank per GPU, RANKS ranks (default 2); where the machine has fewer GPUs, the ranks share them
# under NVIDIA MPS (scripts/gpu/run_with_mps.sh), a proxy whose figures say so in machine.txt. Writes into OUT_DIR: runs/ (every table, JSON and
# CSV line, the commands, machine.txt) and summary.md (scripts/tables/stencil_tables.py).
#   HALOFLAG_BUILD_DIR=build PEER_BUILD=build-peer RANKS=2 scripts/bench/bench_stencils.sh OUT_DIR
# SIZES_2D, NCCHECKS, SIZES_3D, STENCILS narrow the sweep.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench_stencils.sh OUT_DIR}
out=$(mkdir -p "$out" && cd "$out" && pwd)
runs=$out/runs
mkdir -p "$runs"
build=${HALOFLAG_BUILD_DIR:?HALOFLAG_BUILD_DIR: a build with haloflag_jacobi2d and haloflag_jacobi3d}
peer=${PEER_BUILD:-}
ranks=${RANKS:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
jacobi2d=$build/examples/jacobi2d/haloflag_jacobi2d
jacobi3d=$build/examples/jacobi3d/haloflag_jacobi3d

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "ranks: $ranks, one GPU each"
  echo; nvidia-smi || true
  echo; nvidia-smi topo -m || true
  echo; nvcc --version || true
  echo; mpiexec --version || true
} >"$runs/machine.txt" 2>&1

present=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
(( present > 0 )) || present=1
gpus=$(seq -s, 0 $((ranks - 1)))
# haloflag's programs see one GPU per rank (rank % GPUs present); the peer's MPI programs pick
# theirs by node-local rank among all, and its multi-threaded programs use every visible GPU.
one_gpu_per_rank=(bash -c "export CUDA_VISIBLE_DEVICES=\$(( \${OMPI_COMM_WORLD_LOCAL_RANK:-0} % $present )); exec \"\$@\"" one_gpu)
shared=()
if (( present < ranks )); then
  shared=("$root/scripts/gpu/run_with_mps.sh" "$ranks")
  peer=""  # the peer's programs want a GPU per rank
  echo "proxy: $ranks ranks share $present GPU(s) under MPS" >>"$runs/machine.txt"
fi
: >"$runs/commands.txt"
run() {  # run NAME COMMAND...: the command and its output into NAME.txt
  local name=$1
  shift
  echo "\$ $*" >>"$runs/commands.txt"
  { echo "\$ $*"; timeout "${RUN_LIMIT:-120}" "$@" 2>&1; } >"$runs/$name.txt"
}

for n in ${SIZES_2D:-1024 4096 16384}; do
  for c in ${NCCHECKS:-1 100}; do
    common=(-nx "$n" -ny "$n" -niter 1000 -nccheck "$c")
    run "jacobi2d_${n}_$c" "${shared[@]}" mpiexec -n "$ranks" "${one_gpu_per_rank[@]}" "$jacobi2d" "${common[@]}" \
      --json "$runs/jacobi2d_${n}_$c.json"
    grep -E "^(conventional_overlap|stream|resident) " "$runs/jacobi2d_${n}_$c.txt"
    [[ -n $peer ]] || continue
    for variant in nccl nccl_overlap nccl_graphs; do
      [[ -x $peer/$variant/jacobi ]] &&
        run "peer_${variant}_${n}_$c" env CUDA_VISIBLE_DEVICES="$gpus" \
          mpiexec -n "$ranks" "$peer/$variant/jacobi" "${common[@]}" -csv
    done
    for variant in multi_threaded_p2p_opt multi_threaded_copy_overlap; do
      [[ -x $peer/$variant/jacobi ]] &&
        run "peer_${variant}_${n}_$c" env CUDA_VISIBLE_DEVICES="$gpus" "$peer/$variant/jacobi" \
          "${common[@]}" -csv
    done
    grep -h -E "^[a-z_]+, $n, " "$runs"/peer_*_"${n}_$c".txt
  done
done

for local in ${SIZES_3D:-32 64 128 256}; do
  for stencil in ${STENCILS:-7 27}; do
    iterations=$(( local >= 256 ? 50 : 200 ))
    check=(--check)  # the reference runs on rank 0's CPU: too slow for 256^3 per rank
    (( local >= 256 )) && check=()
    run "jacobi3d_${local}_$stencil" "${shared[@]}" mpiexec -n "$ranks" "${one_gpu_per_rank[@]}" "$jacobi3d" \
      --local "$local" --stencil "$stencil" --variant all --iterations "$iterations" --repeats 10 \
      "${check[@]}" --json "$runs/jacobi3d_${local}_$stencil.json"
    grep -E "^(conventional|conventional_overlap|resident|stream) " "$runs/jacobi3d_${local}_$stencil.txt"
  done
done

python3 "$root/scripts/tables/stencil_tables.py" "$runs" >"$out/summary.md" && cat "$out/summary.md"
