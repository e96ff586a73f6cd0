#!/usr/bin/env bash
# The node transport's placement by shape on two GPUs of one host, one rank per GPU
# (nvidia-h200-x2, nvidia-h100-x2): halo_bench over node on the 2-rank configs of each cube, once
# per placement, and the table of the strategies' medians side by side.
#   scripts/bench/bench_node_placement.sh OUT_DIR [halo_bench options...]
# A placement is direct, buffered, by-shape (the default size) or by-shape:BYTES (that
# --node-buffered-from-bytes). OUT_DIR ends up with placement.md (the table, from
# scripts/tables/node_placement_table.py), machine.txt and placement.tar.gz (both, with each run's
# table and JSON, the commands and the build log); `scripts/tables/node_placement_table.py
# OUT_DIR/placement.tar.gz` regenerates the table.
# Environment: HALOFLAG_CUBES (200 400 800), HALOFLAG_PLACEMENTS (direct by-shape),
# HALOFLAG_STRATEGIES (resident,stream_notify,stacked_notify,comb_fused), HALOFLAG_ROUNDS (2),
# HALOFLAG_ITERATIONS (200), HALOFLAG_BUILD_DIR (build-gpu), HALOFLAG_GPU (cuda; none runs the
# host backend, to check this script without a GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: bench_node_placement.sh OUT_DIR [halo_bench options...]"
case ${1:-} in
  -h | --help) echo "$usage"; exit 0 ;;
  "" | -*) echo "bench_node_placement.sh: OUT_DIR comes first; $usage" >&2; exit 2 ;;
esac
command_line="scripts/bench/bench_node_placement.sh $*"
out=$1
shift
source "$root/scripts/figures/figures_common.sh"
figures_two_gpu_env "$root" bench_node_placement.sh
export NCCL_NVLS_ENABLE=0
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
build=$HALOFLAG_BUILD_DIR
read -r -a cubes <<<"${HALOFLAG_CUBES:-200 400 800}"
read -r -a placements <<<"${HALOFLAG_PLACEMENTS:-direct by-shape}"
mkdir -p "$out/placement"
out=$(cd "$out" && pwd)
work=$out/placement
pack() { tar -czf "$out/placement.tar.gz" -C "$out" placement; }
trap 'status=$?; [[ $status -eq 0 ]] || { pack; echo "failed (exit $status): $out/placement.tar.gz" >&2; }' EXIT

figures_build "$root" "$build" "$work/build.log" halo_bench haloflag_gen_config
figures_machine_info "$work/machine.txt" "$root"
echo "## command line: $command_line" >>"$work/machine.txt"
touch "$work/commands.txt"
for cube in "${cubes[@]}"; do
  config=$(figures_reduced_config "$root" "$build" "$work" "$cube" 2)
  for placement in "${placements[@]}"; do
    args=(--node-placement "${placement%%:*}")
    [[ $placement == *:* ]] && args+=(--node-buffered-from-bytes "${placement#*:}")
    name=halo_bench_${cube}_${placement/:/_}
    figures_run_logged "$work/commands.txt" "$work/$name.txt" mpiexec -n 2 \
      "$build/bench/halo_bench" --config "$config" --transport node \
      --strategy "${HALOFLAG_STRATEGIES:-resident,stream_notify,stacked_notify,comb_fused}" \
      --rounds "${HALOFLAG_ROUNDS:-2}" --iterations "${HALOFLAG_ITERATIONS:-200}" --verify 1 \
      --progress 0 "${args[@]}" --json "$work/$name.json" "$@" >/dev/null
  done
done
"$root/scripts/tables/node_placement_table.py" -o "$work/placement.md" "$work"
cp "$work/placement.md" "$work/machine.txt" "$out/"
pack
rm -rf "$work"
cat "$out/placement.md"
