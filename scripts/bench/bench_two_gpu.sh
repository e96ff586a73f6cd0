#!/usr/bin/env bash
# The 2-rank runs on two GPUs of one host, one rank per GPU (nvidia-h200-x2 and the like), in
# three parts, each one device call's worth (a few minutes):
#   exchanges  every strategy over both transports (the node transport crossing NVLink) on the
#              2-rank configs of cubes 200, 400 and 800, the strategies in alternating rounds,
#              each flag strategy also with its order of work tuned at set-up; then the node
#              transport forced to its fallback (pinned host memory both ranks map); then the
#              node transport with teams of 8 blocks of 256 threads per long message
#   orders     every fixed order of work of stream_notify and resident (receives posted first or
#              on arrival, long sends together or in turn, 1 or 3 blocks per long receive), each
#              an option set of scripts/ab/ab_variants.sh in alternating rounds, per transport and cube
#   jacobi     examples/jacobi3d, every variant, 7- and 27-point, 32^3 and 64^3 per rank, over
#              each transport: a run checked bit for bit against the single-rank reference, then
#              a timed run
#   scripts/bench/bench_two_gpu.sh PART OUT_DIR [options...]
# The options go to halo_bench (exchanges); orders takes its counts from ab_variants.sh's
# environment (HALOFLAG_AB_ITERATIONS), jacobi from HALOFLAG_JACOBI_ITERATIONS (200 per timed run)
# and HALOFLAG_JACOBI_REPEATS (20 timed runs).
# Writes OUT_DIR/PART/ (machine.txt, commands.txt and each run's table, JSON and trace) and
# OUT_DIR/PART.tar.gz of it, the one file a device call needs to bring back per part; then
# scripts/tables/two_gpu_report.py OUT_DIR (here or there) summarises the parts present.
# Environment: HALOFLAG_CUBES (200 400 800; orders: 200 800), HALOFLAG_ROUNDS (5; orders: 2),
# HALOFLAG_TRANSPORTS (orders: mpi node), HALOFLAG_BUILD_DIR (build-gpu), HALOFLAG_GPU (cuda;
# none runs the host backend, to check this script without a GPU). With a GPU backend it stops
# unless the node has at least 2 GPUs: two ranks on one GPU are the proxies of
# scripts/bench/bench_node_transport.sh, not this run.
# Cube 800 dominates (every verified exchange checks the whole field on the CPU). On 2 H100s
# (docs/results/h100x2/2026-11-26_two_gpu) exchanges took 1.5 min at cubes 200 and 400 and 7.5 min
# at 800, jacobi 8.5 min, orders 1 min at cube 200 and 52 s per option set and round at 800. To
# keep each call under 10 minutes, split a part over calls with HALOFLAG_CUBES and
# HALOFLAG_TRANSPORTS into the same OUT_DIR: the runs and commands.txt accumulate there, and each
# call's archive holds all of them so far.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/figures/figures_common.sh"
usage="usage: bench_two_gpu.sh exchanges|orders|jacobi OUT_DIR [options...]"
part=${1:?$usage}
out=${2:?$usage}
shift 2
case $part in exchanges | orders | jacobi) ;; *) echo "$usage" >&2; exit 2 ;; esac
mkdir -p "$out/$part"
out=$(cd "$out" && pwd)
dir=$out/$part
figures_two_gpu_env "$root" bench_two_gpu.sh
build=$HALOFLAG_BUILD_DIR
figures_build "$root" "$build" "$dir/build.log" halo_bench haloflag_jacobi3d
figures_machine_info "$dir/machine.txt" "$root"
# Whether the two GPUs reach each other's memory (the node transport's IPC path crosses it).
{ echo "## part: $part; nvidia-smi topo -p2p rw"; nvidia-smi topo -p2p rw 2>&1 || echo "(not available)"; } \
  >>"$dir/machine.txt"
touch "$dir/commands.txt"

case $part in
  exchanges)
    rounds=${HALOFLAG_ROUNDS:-5}
    # node_teams: the node transport with the launch settings that were fastest for it on one
    # GPU (docs/transports.md, "What to set"): across NVLink one block per long message is slow.
    for run in "transports --transport mpi,node --tuning auto" \
      "fallback --transport node --node-mapping host" \
      "node_teams --transport node --message-threads 256 --long-send-blocks 8 --long-receive-blocks 8"; do
      read -r -a options <<<"$run"
      echo "\$ scripts/bench/bench_two_rank.sh $dir/${options[0]} ${options[*]:1} --rounds $rounds $*" \
        >>"$dir/commands.txt"
      "$root/scripts/bench/bench_two_rank.sh" "$dir/${options[0]}" "${options[@]:1}" --rounds "$rounds" \
        --progress 0 "$@"
      gzip -f "$dir/${options[0]}"/trace_*.json
    done
    ;;
  orders)
    # The fixed orders the set-up tuning chooses among (halo/src/tuning/work_order_tuner.cpp): receives
    # matter only with MPI peers.
    read -r -a cubes <<<"${HALOFLAG_CUBES:-200 800}"
    node_orders=""
    for sends in together in-turn; do
      for blocks in 1 3; do
        node_orders+="sends-${sends}_blocks-${blocks}: --long-sends $sends --long-receive-blocks $blocks"$'\n'
      done
    done
    mpi_orders=""
    for receives in posted-first on-arrival; do
      while IFS= read -r line; do
        [[ -n $line ]] && mpi_orders+="receives-${receives}_${line%%:*}: --long-receives $receives${line#*:}"$'\n'
      done <<<"$node_orders"
    done
    read -r -a transports <<<"${HALOFLAG_TRANSPORTS:-mpi node}"
    for cube in "${cubes[@]}"; do
      for transport in "${transports[@]}"; do
        orders=$mpi_orders
        [[ $transport == node ]] && orders=$node_orders
        variants=$(sed -e '/^$/d' -e "s/\$/ --transport $transport/" <<<"$orders")
        echo "\$ HALOFLAG_CUBE=$cube HALOFLAG_AB_ROUNDS=${HALOFLAG_ROUNDS:-2}" \
          "HALOFLAG_AB_STRATEGIES=comb_fused,stream_notify,resident scripts/ab/ab_variants.sh" \
          "$dir/${transport}_$cube  # variants: ${variants//$'\n'/; }" >>"$dir/commands.txt"
        HALOFLAG_CUBE=$cube HALOFLAG_AB_ROUNDS=${HALOFLAG_ROUNDS:-2} HALOFLAG_AB_VARIANTS=$variants \
          HALOFLAG_AB_STRATEGIES=comb_fused,stream_notify,resident \
          "$root/scripts/ab/ab_variants.sh" "$dir/${transport}_$cube"
      done
    done
    ;;
  jacobi)
    backend=$HALOFLAG_GPU
    [[ $backend == none ]] && backend=host
    program=$build/examples/jacobi3d/haloflag_jacobi3d
    for stencil in 7 27; do
      for local in 32 64; do
        for transport in mpi node; do
          name=s${stencil}_l${local}_$transport
          for mode in check timed; do
            timing=(--iterations "${HALOFLAG_JACOBI_ITERATIONS:-200}" --warmup 2
              --repeats "${HALOFLAG_JACOBI_REPEATS:-20}")
            [[ $mode == check ]] && timing=(--iterations 20 --warmup 0 --repeats 1 --check)
            command=(mpiexec -n 2 "$program" --backend "$backend" --variant all
              --stencil "$stencil" --local "$local" --transport "$transport" "${timing[@]}"
              --json "$dir/${mode}_$name.json")
            echo "\$ ${command[*]}" | tee -a "$dir/commands.txt" >"$dir/${mode}_$name.txt"
            "${command[@]}" >>"$dir/${mode}_$name.txt" 2>&1 </dev/null ||
              { tail -20 "$dir/${mode}_$name.txt" >&2; exit 1; }
          done
        done
      done
    done
    ;;
esac

tar -czf "$out/$part.tar.gz" -C "$out" "$part"
echo "bench_two_gpu.sh: $part done: $out/$part.tar.gz"
