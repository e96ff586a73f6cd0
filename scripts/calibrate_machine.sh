#!/usr/bin/env bash
# Calibrates the model for the machine at hand (docs/model.md, "Calibrating a machine"): MPI
# ping-pong (alpha, beta, eager threshold), concurrent bandwidth (R_Cb, R_Ci), GPU pack and
# unpack time per message size (one rank at a time) and of whole halos by the fused kernels (every
# rank at once, each run's slowest rank), the node transport's copy and flag latency (when there
# is a GPU), launch and flag latency (notify_latency), every strategy's fixed cost on an exchange
# of tiny messages (halo_bench, 2 ranks, under MPS when they share a GPU), then the merged
# parameter file, cached for halo_bench, and the model's bound and predictions for the shipped
# 2-rank configs. Everything lands in OUT_DIR:
#   params.json                 the parameter file for haloflag_model and halo_bench --params;
#                               also copied to the cache halo_bench looks in (below)
#   pack_unpack.json            the pack/unpack table; pack_unpack.raw.json: every run
#   pingpong.json, concurrent.json   the MPI measurements with their fits
#   bulk_exchange.json          2 ranks exchanging 6 messages each way at once: the MPI copy term
#   node.json                   the node transport's measurements and terms (GPU present)
#   notify_latency.json         launch + synchronisation, graph launch, host/GPU flag round trip
#   probe.json, probe.cfg       halo_bench on tiny messages: each strategy's fixed cost
#   grid_{120,300,600}.{json,cfg}  halo_bench over node at three sizes (none of them a shipped
#                               config): the flag strategies' node grid term
#   model_{200,400,800}.{log,json}   predictions for comb_configs/comb_*_np2_reduced.cfg, and
#                               model_*_node.* with --transport node when node.json was made
#   machine.txt                 GPUs, topology, CPU, versions, commit and every command run
#   commands.txt, *.log         the commands alone, and each one's output
# and with HALOFLAG_CALIBRATION_BENCH=1 also the measured side of the report:
#   bench/                      scripts/bench/bench_two_rank.sh with --params params.json (cubes 200,
#                               400, 800; every strategy)
#   report/                     scripts/tables/model_report.py on bench/ (table, plot when matplotlib is
#                               there; else run it where it is, on the copied bench/ files)
#
#   scripts/calibrate_machine.sh OUT_DIR
#
# Builds into build-gpu/ with the CUDA backend (offline machines: carry .deps from
# scripts/stage_offline_deps.sh). Environment:
#   HALOFLAG_BUILD_DIR           build directory (build-gpu)
#   HALOFLAG_GPU                 GPU backend to build: cuda (default), hip, auto or none
#   HALOFLAG_BACKEND             pack/unpack backend: the GPU backend built (so that a GPU that
#                                cannot be used stops the run instead of yielding host numbers);
#                                auto when HALOFLAG_GPU is auto or none
#   HALOFLAG_CONCURRENT_RANKS    ranks of the concurrent-bandwidth run (8, or 2 below 8 cores)
#   HALOFLAG_CALIBRATION_QUICK=1 every tool in --quick mode (a check of this script, not a
#                                calibration)
#   HALOFLAG_PACK_UNPACK_ARGS    more options for haloflag_calibrate_pack_unpack
#   HALOFLAG_NODE_ARGS           more options for haloflag_calibrate_node
#   HALOFLAG_CALIBRATION_BENCH=1 then halo_bench with the new parameters, and the report
#   HALOFLAG_CALIBRATION_SKIP_BUILD=1  use the tools already built in HALOFLAG_BUILD_DIR
#   HALOFLAG_MPIEXEC             the MPI launcher of the tools' MPI library (mpiexec)
#   HALOFLAG_PARAMS_DIR          where the parameter file is cached as <GPU>__<MPI>.json
#                                (default ${XDG_CACHE_HOME:-$HOME/.cache}/haloflag/params); halo_bench
#                                without --params takes it from there
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: calibrate_machine.sh OUT_DIR}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
gpu_build=${HALOFLAG_GPU:-cuda}
case $gpu_build in
  cuda | hip) pack_unpack_backend=${HALOFLAG_BACKEND:-$gpu_build} ;;
  *) pack_unpack_backend=${HALOFLAG_BACKEND:-auto} ;;
esac
cores=$(nproc)
mpiexec=${HALOFLAG_MPIEXEC:-mpiexec}
concurrent_ranks=${HALOFLAG_CONCURRENT_RANKS:-$([[ $cores -ge 8 ]] && echo 8 || echo 2)}
quick=()
quick_bench=()
if [[ "${HALOFLAG_CALIBRATION_QUICK:-0}" == "1" ]]; then
  quick=(--quick)
  quick_bench=(--iterations 5 --warmup 1 --verify 1)
fi
read -r -a pack_unpack_args <<<"${HALOFLAG_PACK_UNPACK_ARGS:-}"
read -r -a node_tool_args <<<"${HALOFLAG_NODE_ARGS:-}"

# The node transport's terms are GPU kernels' times: measured only with a GPU backend and a GPU.
node_skip=""
case $gpu_build in
  cuda) nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || node_skip="no GPU (nvidia-smi -L: none)" ;;
  hip) [[ -e /dev/kfd ]] || node_skip="no GPU (no /dev/kfd)" ;;
  *) node_skip="HALOFLAG_GPU=$gpu_build: haloflag_calibrate_node is built for cuda or hip only" ;;
esac

export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Only where the ranks outnumber the cores: Open MPI then yields when idle, which would slow
# the timed loops of a machine that has cores to spare.
[[ $concurrent_ranks -gt $cores ]] && export OMPI_MCA_rmaps_base_oversubscribe=1

: >"$out/commands.txt"
# run NAME COMMAND...: records the command, runs it with its output in NAME.log and on stdout.
run() {
  local name=$1
  shift
  echo "\$ $*" | tee -a "$out/commands.txt" | tee "$out/$name.log"
  "$@" 2>&1 | tee -a "$out/$name.log"
}

with_bench=${HALOFLAG_CALIBRATION_BENCH:-0}
if [[ "${HALOFLAG_CALIBRATION_SKIP_BUILD:-0}" != "1" ]]; then
  echo "== build ($build)"
  run configure cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DHALOFLAG_GPU="$gpu_build" -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >/dev/null
  targets=(haloflag_calibrate_pingpong haloflag_calibrate_concurrent haloflag_calibrate_merge
    haloflag_calibrate_bulk_exchange
    haloflag_calibrate_pack_unpack haloflag_model_cli notify_latency halo_bench haloflag_gen_config)
  [[ -z $node_skip ]] && targets+=(haloflag_calibrate_node)
  run build cmake --build "$build" -j "$cores" --target "${targets[@]}" >/dev/null
fi
measure_start=$SECONDS
tools=$build/model/calibration
model_cli=$build/model/haloflag_model
pack_unpack_tool=$build/bench/pack_unpack_calibration/haloflag_calibrate_pack_unpack
node_tool=$build/bench/node_calibration/haloflag_calibrate_node
notify_tool=$build/bench/notify_latency/notify_latency
bench_tool=$build/bench/halo_bench

# Each probe may be missing (no GPU, no git): the file says so instead of stopping the run.
probe() {
  echo "## $*"
  "$@" 2>&1 || echo "(not available)"
  echo
}
{
  probe date -u +%Y-%m-%dT%H:%M:%SZ
  probe hostname
  probe uname -r
  probe nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,memory.total --format=csv
  probe nvidia-smi topo -m
  probe lscpu
  probe nvcc --version
  probe mpirun --version
  probe cmake --version
  probe c++ --version
  probe git -C "$root" rev-parse HEAD
  probe git -C "$root" status --short
} >"$out/machine.txt"

gpu_names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
  awk '{count=$1; $1=""; sub(/^ /, ""); printf "%s%d x %s", (NR > 1 ? ", " : ""), count, $0}' || true)
machine="$(hostname): ${gpu_names:-no GPU}"

echo "== MPI ping-pong, 2 ranks placed as halo_bench places them (mpiexec -n 2)"
run pingpong "$mpiexec" -n 2 "$tools/haloflag_calibrate_pingpong" "${quick[@]}" \
  --out "$out/pingpong.json"

echo "== concurrent bandwidth, $concurrent_ranks ranks"
run concurrent "$mpiexec" -n "$concurrent_ranks" "$tools/haloflag_calibrate_concurrent" \
  "${quick[@]}" --out "$out/concurrent.json"

echo "== bulk exchange: 2 ranks sending and receiving at once (the MPI copy term)"
run bulk_exchange "$mpiexec" -n 2 "$tools/haloflag_calibrate_bulk_exchange" "${quick[@]}" \
  --out "$out/bulk_exchange.json"

# Whole halos are timed on both ranks at once, as in an exchange: under MPS when they share a GPU.
echo "== GPU pack and unpack: per message size one rank at a time, whole halos both at once"
run pack_unpack "$root/scripts/gpu/run_with_mps.sh" 2 "$mpiexec" -n 2 "$pack_unpack_tool" \
  --backend "$pack_unpack_backend" "${quick[@]}" "${pack_unpack_args[@]}" \
  --out "$out/pack_unpack.json"

node_args=()
if [[ -z $node_skip ]]; then
  echo "== node transport: device-to-device copy and flag latency on GPU 0"
  run node "$node_tool" --gpu 0 "${quick[@]}" "${node_tool_args[@]}" --out "$out/node.json"
  node_args=(--node "$out/node.json")
else
  echo "== node transport: skipped: $node_skip (params.json gets no node_transport)"
  echo "# node transport skipped: $node_skip" >>"$out/commands.txt"
fi

echo "== launch + synchronisation and the host/GPU flag round trip"
notify_backend=$pack_unpack_backend
[[ $notify_backend == auto && -z $node_skip ]] && notify_backend=$gpu_build
notify_iterations=2000
[[ ${#quick[@]} -gt 0 ]] && notify_iterations=200
run notify_latency "$notify_tool" --backend "$notify_backend" --iterations "$notify_iterations" \
  --warmup 100 --json "$out/notify_latency.json"

# The probe: every strategy on 26 messages of at most 384 B (a cube of side 4 per rank), so what
# it measures is each strategy's cost per exchange apart from its bytes.
echo "== exchange probe: every strategy on tiny messages, 2 ranks"
run probe_config "$build/comb_configs/haloflag_gen_config" --size 16 --divide 4,4,4 \
  --periodic 1,1,1 --ghost 1 --vars 3 --reduce-to-2-ranks 21 --output "$out/probe.cfg"
run probe "$root/scripts/gpu/run_with_mps.sh" 2 "$mpiexec" -n 2 "$bench_tool" --config "$out/probe.cfg" \
  --transport mpi,node --iterations 200 --rounds 2 --warmup 20 --trace-exchanges 0 \
  --json "$out/probe.json"

# The node grid's term: the flag strategies over node at sizes the predictions below are not
# checked at, so that the checks at 200, 400 and 800 test the model rather than the fit.
grid_args=()
if [[ ${#node_args[@]} -gt 0 ]]; then
  echo "== node grid probe: the flag strategies over node at cubes 120, 300 and 600, 2 ranks"
  for cube in 120 300 600; do
    run "grid_${cube}_config" "$build/comb_configs/haloflag_gen_config" --size "$cube" \
      --divide 4,4,4 --periodic 1,1,1 --ghost 1 --vars 3 --reduce-to-2-ranks 21 \
      --output "$out/grid_$cube.cfg"
    run "grid_$cube" "$root/scripts/gpu/run_with_mps.sh" 2 "$mpiexec" -n 2 "$bench_tool" \
      --config "$out/grid_$cube.cfg" --transport node \
      --strategy stream_notify,stacked_notify,resident --iterations 300 --rounds 2 --warmup 30 \
      --trace-exchanges 0 --json "$out/grid_$cube.json"
    grid_args+=(--node-grid-probe "$out/grid_$cube.json")
  done
fi

# mpiexec -n 2 puts both ranks on one socket of one node (Open MPI maps by core up to 2
# ranks): the 2-rank configs are then intra-socket messages, timed by the ping-pong's fit.
echo "== parameter file"
run merge "$tools/haloflag_calibrate_merge" --pingpong "$out/pingpong.json" \
  --concurrent "$out/concurrent.json" --pack-unpack "$out/pack_unpack.json" "${node_args[@]}" \
  --notify "$out/notify_latency.json" --bulk-exchange "$out/bulk_exchange.json" \
  --exchange-probe "$out/probe.json" "${grid_args[@]}" \
  --ranks-per-node 2 --ranks-per-socket 2 --machine "$machine" --out "$out/params.json"
echo "measuring took $((SECONDS - measure_start)) s" | tee -a "$out/commands.txt"

# Cached under the key halo_bench computes for this GPU and MPI library (the probe's report
# carries it), so that the next halo_bench without --params uses this calibration.
key=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["model"]["params_key"])' \
  "$out/probe.json")
cache_dir=${HALOFLAG_PARAMS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/haloflag/params}
mkdir -p "$cache_dir"
cp "$out/params.json" "$cache_dir/$key.json"
echo "cached as $cache_dir/$key.json" | tee -a "$out/commands.txt"

echo "== predictions for the shipped 2-rank configs"
ranks_per_gpu=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["gpu_sharing"]["ranks_per_gpu"])' \
  "$out/probe.json")
for cube in 200 400 800; do
  run "model_$cube" "$model_cli" "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
    --params "$out/params.json" --strategy comb_fused --ranks-per-gpu "$ranks_per_gpu" \
    --json "$out/model_$cube.json"
  if [[ ${#node_args[@]} -gt 0 ]]; then
    run "model_${cube}_node" "$model_cli" "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
      --params "$out/params.json" --transport node --strategy resident \
      --ranks-per-gpu "$ranks_per_gpu" --json "$out/model_${cube}_node.json"
  fi
done

if [[ $with_bench == 1 ]]; then
  echo "== halo_bench with the new parameters"
  echo "\$ scripts/bench/bench_two_rank.sh $out/bench --params $out/params.json ${quick_bench[*]}" >>"$out/commands.txt"
  HALOFLAG_BUILD_DIR=$build "$root/scripts/bench/bench_two_rank.sh" "$out/bench" \
    --params "$out/params.json" "${quick_bench[@]}"
  echo "== measured against modeled"
  report_args=()
  python3 -c "import matplotlib" 2>/dev/null || /usr/bin/python3 -c "import matplotlib" \
    2>/dev/null || report_args+=(--no-plot)
  run report python3 "$root/scripts/tables/model_report.py" "$out"/bench/halo_bench_*.json \
    --out-dir "$out/report" "${report_args[@]}"
fi

{
  echo "## commands (also in commands.txt; each one's output in its .log)"
  cat "$out/commands.txt"
} >>"$out/machine.txt"
echo "== done: $out"
grep -H "total lower bound" "$out"/model_*.log | sed "s|^$out/|  |"
