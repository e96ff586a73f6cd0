#!/usr/bin/env bash
# Resident kernels that leave the GPU when idle (docs/design.md, "Resident kernels that leave when
# idle"), on two GPUs of one host, one rank per GPU:
#  1. what a relaunch costs: halo_bench, resident over node at cube 200, with a pause of
#     HALOFLAG_GAP_US (5000) before every timed exchange, longer than the window, so that each one
#     launches the kernels again (--idle-exit default), against the same pauses with kernels that
#     stay (--idle-exit never); the difference of the medians is the relaunch, HALOFLAG_ROUNDS (2)
#     rounds alternating the two;
#  2. the action table: scripts/bench/bench_coexistence.sh (device synchronize, a kernel's first load,
#     frees, writes into the fields; CuPy and PyTorch; resident, its stream form, stream_notify and
#     idle_exit = never).
#   scripts/bench/bench_idle_exit.sh OUT_DIR [BUILD_DIR]      (BUILD_DIR: build, with the Python package)
# OUT_DIR gets cost_<idle>_r<round>.{txt,json}, cost.txt (the medians and their differences) and
# actions/ (table.md, coexistence.json).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: scripts/bench/bench_idle_exit.sh OUT_DIR [BUILD_DIR]}
build=${2:-$root/build}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
gap=${HALOFLAG_GAP_US:-5000}
for round in $(seq 1 "${HALOFLAG_ROUNDS:-2}"); do
  for idle in default never; do
    mpiexec -n 2 "$build/bench/halo_bench" --config "$root/comb_configs/comb_200_np2_reduced.cfg" \
      --strategy resident --transport node --tuning fixed --rounds 1 --iterations 300 \
      --warmup 20 --progress 0 --idle-gap "$gap" --idle-exit "$idle" \
      --json "$out/cost_${idle}_r$round.json" >"$out/cost_${idle}_r$round.txt" 2>&1
  done
done
python3 - "$out" <<'PY' | tee "$out/cost.txt"
import json, pathlib, statistics, sys
out = pathlib.Path(sys.argv[1])
def median(idle, r):
    data = json.loads((out / f"cost_{idle}_r{r}.json").read_text())
    entry = next(e for e in data["strategies"] if e["strategy"] == "resident")
    return statistics.median(entry["samples_us"]), entry["timed_relaunches"]
rounds = sorted({int(p.stem.rsplit("_r", 1)[1]) for p in out.glob("cost_default_r*.json")})
print("round | relaunching (us) | relaunches | staying (us) | relaunch cost (us)")
for r in rounds:
    (d, n), (s, _) = median("default", r), median("never", r)
    print(f"{r} | {d:.1f} | {n} | {s:.1f} | {d - s:.1f}")
PY
"$root/scripts/bench/bench_coexistence.sh" "$out/actions" "$build" --with-never
