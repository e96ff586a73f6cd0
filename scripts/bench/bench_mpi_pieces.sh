#!/usr/bin/env bash
# Messages in pieces over MPI on two GPUs of one host, one rank per GPU (nvidia-h100-x2,
# nvidia-h200-x2): halo_bench on the 2-rank configs of HALOFLAG_CUBES (200 800), every peer over
# MPI (--transport mpi), comb_fused, stream_notify and resident in rotation, once per piece size
# of HALOFLAG_PIECE_BYTES (0 16384 8192 32768 65536; 0 is whole messages). Each run has
# comb_fused beside the flag strategies, so every ratio to it comes from one run.
#   scripts/bench/bench_mpi_pieces.sh OUT_DIR [halo_bench options...]
# Writes OUT_DIR/pieces/ (machine.txt with the MPI library and its shared-memory copy mechanism,
# commands.txt, each run's table and JSON) and OUT_DIR/pieces.tar.gz.
# Environment: HALOFLAG_CUBES, HALOFLAG_PIECE_BYTES, HALOFLAG_ROUNDS (3), HALOFLAG_BUILD_DIR
# (build-gpu), HALOFLAG_PREBUILT=1 to run the halo_bench already in HALOFLAG_BUILD_DIR (built
# elsewhere for this machine) without configuring, HALOFLAG_GPU (cuda; none runs the host
# backend, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
out=${1:?usage: bench_mpi_pieces.sh OUT_DIR [halo_bench options...]}
shift
mkdir -p "$out/pieces"
out=$(cd "$out" && pwd)
dir=$out/pieces
figures_two_gpu_env "$root" bench_mpi_pieces.sh
build=$HALOFLAG_BUILD_DIR
rounds=${HALOFLAG_ROUNDS:-3}
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
read -r -a pieces <<<"${HALOFLAG_PIECE_BYTES:-0 16384 8192 32768 65536}"
touch "$dir/commands.txt"

[[ ${HALOFLAG_PREBUILT:-0} == 1 ]] || figures_build "$root" "$build" "$dir/build.log" halo_bench
figures_machine_info "$dir/machine.txt" "$root"
figures_mpi_copy_info "$dir/machine.txt"

backend=()
[[ $HALOFLAG_GPU == none ]] && backend=(--backend host)
for cube in "${cubes[@]}"; do
  for bytes in "${pieces[@]}"; do
    figures_run_logged "$dir/commands.txt" "$dir/halo_bench_${cube}_pieces_${bytes}.txt" \
      mpiexec -n 2 "$build/bench/halo_bench" "${backend[@]}" \
      --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
      --strategy comb_fused,stream_notify,resident --transport mpi --mpi-piece-bytes "$bytes" \
      --rounds "$rounds" --progress 0 --json "$dir/halo_bench_${cube}_pieces_${bytes}.json" "$@"
  done
done
tar -czf "$out/pieces.tar.gz" -C "$out" pieces
