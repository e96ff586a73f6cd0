#!/usr/bin/env bash
# Soak: many consecutive exchanges, every one verified, for resident and stream_notify
# on two ranks with one GPU each; no wrong exchange allowed, and the drift of the time per
# exchange (median of the first 1000 timed exchanges vs the last 1000) is reported. One round
# (--rounds 1): each strategy's exchanges in one stretch, through one Exchange, so the drift is
# that of one long-lived Exchange (resident kernels included).
#   scripts/checks/soak.sh OUT_DIR [EXCHANGES]
# EXCHANGES (or HALOFLAG_SOAK_EXCHANGES; default 100000): verified timed exchanges per strategy.
# Workload: the paper's 2-rank reduction (rank 21's 26 neighbours of a periodic 4x4x4 rank grid,
# each rank the other's neighbour in every direction) of a ${HALOFLAG_SOAK_CUBE:-64}-cube, 3 vars:
# 16^3 cells per rank, so that filling, uploading, downloading and checking every exchange stays
# cheap (a 140 KB field per rank; 26 messages of 24 B to 6 KB) beside the exchange itself.
# Writes into OUT_DIR: halo_bench.json (every sample), halo_bench.txt (command and table),
# machine.txt, commands.txt, build.log, the config, and soak_summary.txt: one line per strategy
# (exchanges, failures, median of the first and of the last 1000, their ratio).
# Environment: HALOFLAG_SOAK_BACKEND (cuda; host for a smoke test on a machine without a GPU),
# HALOFLAG_BUILD_DIR (build-gpu/; configured once with HALOFLAG_GPU=${HALOFLAG_GPU:-cuda}, built
# incrementally), HALOFLAG_MPIEXEC_FLAGS (extra launcher options, e.g. --oversubscribe),
# HALOFLAG_SOAK_DRIFT_WINDOW (1000). Offline machines: carry .deps (scripts/stage_offline_deps.sh).
# Exit status: halo_bench's (1 when any exchange was wrong), 2 for bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: soak.sh OUT_DIR [EXCHANGES]}
exchanges=${2:-${HALOFLAG_SOAK_EXCHANGES:-100000}}
backend=${HALOFLAG_SOAK_BACKEND:-cuda}
cube=${HALOFLAG_SOAK_CUBE:-64}
window=${HALOFLAG_SOAK_DRIFT_WINDOW:-1000}
build=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
if ! [[ $exchanges =~ ^[1-9][0-9]*$ ]]; then
  echo "soak.sh: EXCHANGES must be a positive integer, got '$exchanges'" >&2
  exit 2
fi
if ! [[ $cube =~ ^[1-9][0-9]*$ ]] || ((cube % 4 != 0)); then
  echo "soak.sh: HALOFLAG_SOAK_CUBE must be a positive multiple of 4, got '$cube'" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

started=$SECONDS
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-cuda}" \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log" >&2; exit 1; }
fi
cmake --build "$build" -j "$(nproc)" --target halo_bench haloflag_gen_config \
  >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; exit 1; }
echo "soak.sh: built in $((SECONDS - started)) s" >&2

config=$out/comb_${cube}_np2_reduced.cfg
generate=("$build/comb_configs/haloflag_gen_config" --size "$cube" --divide 4,4,4 --periodic 1,1,1
  --ghost 1 --vars 3 --reduce-to-2-ranks 21 --output "$config")
"${generate[@]}"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(hostname)"
  echo "kernel: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "cpus: $(nproc)"
  echo "git: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "mpiexec: $(mpiexec --version 2>&1 | head -1)"
  echo "cmake: $(cmake --version | head -1)"
  if command -v nvidia-smi >/dev/null; then
    echo "nvcc: $(nvcc --version 2>/dev/null | tail -1)"
    nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total --format=csv
    nvidia-smi topo -m 2>/dev/null || true
  fi
} >"$out/machine.txt" 2>&1

# One GPU per rank: each rank sees only its node-local rank's GPU (Open MPI or MPICH/Hydra).
read -r -a launcher_flags <<<"${HALOFLAG_MPIEXEC_FLAGS:-}"
bench=(mpiexec "${launcher_flags[@]}" -n 2 bash -c
  'export CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-0}}; exec "$@"' rank
  "$build/bench/halo_bench" --backend "$backend" --strategy stream_notify,resident
  --config "$config" --warmup 100 --verify 5 --verify-each --iterations "$exchanges" --rounds 1
  --drift-window "$window" --progress 10 --trace-exchanges 0 --timeout 30
  --json "$out/halo_bench.json")
{
  echo "# $(date -u +%FT%TZ), in $PWD"
  echo "${generate[*]}"
  echo "${bench[*]}"
} >"$out/commands.txt"

started=$SECONDS
set +e
{
  echo "\$ ${bench[*]}"
  "${bench[@]}" 2>&1
} | tee "$out/halo_bench.txt"
status=${PIPESTATUS[0]}  # halo_bench's, the group's last command
set -e
echo "soak.sh: halo_bench ran $((SECONDS - started)) s" >&2

if [[ -f $out/halo_bench.json ]]; then
  python3 - "$out/halo_bench.json" "$window" >"$out/soak_summary.txt" <<'EOF' || status=1
import json, sys
report = json.load(open(sys.argv[1]))
window = int(sys.argv[2])
failed = False
for s in report["strategies"]:
    check = s["verification"]
    timed = len(s["samples_us"])
    drift = s.get("drift")
    line = (f"{s['name']}: {timed} timed exchanges ({'each verified' if check['timed_verified'] else 'NOT verified'}), "
            f"{check['exchanges']} verified in all, {check['wrong_exchanges']} wrong, "
            f"passed={'yes' if check['passed'] else 'NO'}")
    if drift:
        line += (f"; median of the first {drift['window']}: {drift['first_median_us']:.2f} us, "
                 f"of the last {drift['window']}: {drift['last_median_us']:.2f} us, "
                 f"last/first {drift['last_over_first']:.3f}")
    else:
        line += f"; no drift (fewer than {2 * window} timed exchanges)"
    failed = failed or not check["passed"] or not check["timed_verified"]
    print(line)
print(f"backend {report['backend']['name']}, {report['mpi']['ranks']} ranks, "
      f"{report['workload']['description']}")
sys.exit(1 if failed else 0)
EOF
  cat "$out/soak_summary.txt"
else
  echo "soak.sh: halo_bench wrote no report (exit $status)" | tee "$out/soak_summary.txt" >&2
  [[ $status -ne 0 ]] || status=1
fi
exit "$status"
