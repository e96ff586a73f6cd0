#!/usr/bin/env bash
# scripts/calibrate_machine.sh in quick mode on the host backend, with the tools of this build:
# it must write a parameter file whose schedule holds every strategy's fixed cost over MPI,
# read back by haloflag_model --strategy, and cache it under this machine's key.
#   calibrate_machine_test.sh BUILD_DIR SCRATCH_DIR [MPIEXEC]
# MPIEXEC: the launcher of the MPI library the build links (CMake's MPIEXEC_EXECUTABLE).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
out=$2
mpiexec=${3:-mpiexec}
rm -rf "$out"
mkdir -p "$out"
HALOFLAG_GPU=none HALOFLAG_CALIBRATION_QUICK=1 HALOFLAG_CALIBRATION_SKIP_BUILD=1 \
  HALOFLAG_BUILD_DIR="$build" HALOFLAG_PARAMS_DIR="$out/cache" HALOFLAG_CONCURRENT_RANKS=2 \
  HALOFLAG_MPIEXEC="$mpiexec" \
  "$root/scripts/calibrate_machine.sh" "$out/calibration" >"$out/calibrate.log" 2>&1 ||
  { tail -40 "$out/calibrate.log"; exit 1; }
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
params = json.loads((out / "calibration" / "params.json").read_text())
schedule = params["schedule"]
for key in ("launch_sync_s", "graph_launch_sync_s", "host_flag_s"):
    assert schedule[key] > 0, key
assert set(schedule["fused"]) == {"pack_pinned", "unpack_pinned", "pack_device", "unpack_device"}
strategies = {"comb_fused", "comb_graph", "stream_base", "stream_notify", "stacked_notify", "resident"}
assert set(schedule["fixed_s"]) == strategies, schedule["fixed_s"]
assert all(cost["mpi"] >= 0 for cost in schedule["fixed_s"].values())
cached = list((out / "cache").glob("host__*.json"))
assert len(cached) == 1, cached
assert json.loads(cached[0].read_text()) == params
model = json.loads((out / "calibration" / "model_200.json").read_text())
assert model["prediction"]["predicted_s"] > 0, model["prediction"]
print("calibrate_machine.sh: schedule with", len(schedule["fixed_s"]), "fixed costs, cached as",
      cached[0].name)
PY
