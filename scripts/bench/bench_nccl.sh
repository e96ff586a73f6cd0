#!/usr/bin/env bash
# The nccl strategy on two GPUs of one host, one rank per GPU (nvidia-h100-x2, nvidia-h200-x2),
# in parts of one device call each:
#   tests      configures with NCCL required (-DHALOFLAG_NCCL=on: found in the CUDA toolkit, or in
#              python3's nvidia/nccl package beside PyTorch), builds the NCCL tests and runs
#              ctest -R nccl: the strategy at 1 and 2 ranks with every cell verified, a stopped
#              peer, the buffer layout, the deadline on its blocking calls, its order of work,
#              the configure report
#   exchanges  halo_bench on the 2-rank configs of HALOFLAG_CUBES (200 800): every strategy over
#              node and over mpi, nccl and the plain NCCL program (nccl:plain), in rotation
#              (--strategy all --transport node,mpi); each row against comb_fused, nccl's also
#              against haloflag's fastest over node and against nccl:plain; at the end, per cube,
#              those rows, the phase table's nccl row and the stream steps table (summary.txt)
#   scripts/bench/bench_nccl.sh PART OUT_DIR [halo_bench options...]
# e.g. on the GPU machine:
#   scripts/bench/bench_nccl.sh tests "$OUT/nccl" && scripts/bench/bench_nccl.sh exchanges "$OUT/nccl"
# Each part writes OUT_DIR/PART/ (machine.txt, commands.txt, the build's NCCL line, each run's
# table and JSON) and OUT_DIR/PART.tar.gz, the one file a device call brings back per part.
# NCCL_NVLS_ENABLE=0 for every run (NVLink SHARP's multicast stays off on these machines).
# Environment: HALOFLAG_CUBES, HALOFLAG_ROUNDS (3), HALOFLAG_BUILD_DIR (build-gpu),
# HALOFLAG_GPU (cuda; none configures the host backend, to check this script without a GPU:
# nccl is then reported as not built and left out of the rotation).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
usage="usage: bench_nccl.sh tests|exchanges OUT_DIR [halo_bench options...]"
part=${1:?$usage}
out=${2:?$usage}
shift 2
case $part in tests | exchanges) ;; *) echo "$usage" >&2; exit 2 ;; esac
mkdir -p "$out/$part"
out=$(cd "$out" && pwd)
dir=$out/$part
figures_two_gpu_env "$root" bench_nccl.sh
export NCCL_NVLS_ENABLE=0
build=$HALOFLAG_BUILD_DIR
rounds=${HALOFLAG_ROUNDS:-3}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
touch "$dir/commands.txt"
logged() { figures_run_logged "$dir/commands.txt" "$@"; }  # logged LOG COMMAND...

# Configured every time, NCCL required where there is a GPU: a stale cache without NCCL would
# quietly leave nccl out of the rotation.
nccl_required=on
[[ $HALOFLAG_GPU == none ]] && nccl_required=auto
tests=OFF
[[ $part == tests ]] && tests=ON
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="$HALOFLAG_GPU" \
  -DHALOFLAG_NCCL=$nccl_required -DHALOFLAG_BUILD_TESTS=$tests \
  -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$dir/build.log" 2>&1 ||
  { tail -30 "$dir/build.log" >&2; exit 1; }
grep "nccl strategy" "$dir/build.log" | tee "$dir/nccl_build.txt"
figures_machine_info "$dir/machine.txt" "$root"
{
  echo "## python3's NCCL package"
  python3 -c "import nvidia.nccl as p; print(list(p.__path__))" 2>&1 || echo "(not available)"
  echo "## NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
} >>"$dir/machine.txt"

case $part in
  tests)
    targets=(--target halo_nccl_exchange_mpi_test --target halo_nccl_peer_spans_test
             --target halo_nccl_watched_call_test --target halo_nccl_strategy_test)
    cmake --build "$build" -j "$(nproc)" "${targets[@]}" >>"$dir/build.log" 2>&1 ||
      { tail -30 "$dir/build.log" >&2; exit 1; }
    (cd "$build" && logged "$dir/ctest_nccl.txt" ctest -R nccl --output-on-failure "$@") || true
    ;;
  exchanges)
    cmake --build "$build" -j "$(nproc)" --target halo_bench >>"$dir/build.log" 2>&1 ||
      { tail -30 "$dir/build.log" >&2; exit 1; }
    for cube in "${cubes[@]}"; do
      logged "$dir/halo_bench_${cube}.txt" mpiexec -n 2 "$build/bench/halo_bench" \
        --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" --strategy all \
        --transport node,mpi --rounds "$rounds" --progress 0 \
        --json "$dir/halo_bench_${cube}.json" "$@"
    done
    for cube in "${cubes[@]}"; do
      table=$dir/halo_bench_${cube}.txt
      echo "== cube $cube: nccl, the plain NCCL program, comb_fused and resident over node"
      sed -n '1,/^vs comb_fused:/p' "$table" |
        grep -E '^(strategy +transport|nccl|nccl:plain|comb_fused/node|resident/node|resident:tuned/node) |^  nccl' ||
        true
      awk '/^phases \(/ {on = 1; print} on && /^(strategy|nccl) / {print} /^started:/ {on = 0}' "$table"
      sed -n '/^stream steps/,/^pack, group, unpack/p' "$table"
    done | tee "$dir/summary.txt"
    ;;
esac
tar -czf "$out/$part.tar.gz" -C "$out" "$part"
