#!/usr/bin/env bash
# The README's main command: the halo exchange benchmark (bench/halo_bench) on the best backend
# present, with the model's prediction beside it, every strategy over MPI and over the node
# transport (--transport mpi,auto unless the arguments name a transport), each flag strategy
# also with its order of work tuned at set-up (--tuning auto, unless the arguments say --no-tune
# or name --tuning).
#   scripts/run.sh [halo_bench arguments...]        e.g. --strategy stream_notify --iterations 1000
#   HALOFLAG_RANKS=4 scripts/run.sh                 ranks (default 2: the paper's 2-rank config)
# When the ranks share a GPU, persistent kernels of different processes only run side by side
# under NVIDIA MPS: this starts an MPS daemon for the run and stops it after (one already
# running is used as it is), and halo_bench says so in its heading. Without MPS, halo_bench
# leaves out the strategies that need co-resident kernels and names them.
# Builds halo_bench first (Release, into build/). Options: bench/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HALOFLAG_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
# The main job needs no test framework; scripts/test.sh turns the tests back on.
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
  -DHALOFLAG_BUILD_TESTS=OFF ${HALOFLAG_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" --target halo_bench >/dev/null

bench=$build/bench/halo_bench
if [[ ! -x "$bench" ]]; then
  echo "run: the build did not produce $bench" >&2
  exit 1
fi
ranks=${HALOFLAG_RANKS:-2}
# More ranks than cores and running as root are refused by Open MPI unless allowed (4.x: the
# OMPI_ variables; 5.x: PRRTE's mapping policy); MPICH ignores all of them.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe

# The nccl strategy (in the rotation where the build found NCCL and each rank has its own GPU):
# NCCL's NVLink SHARP multicast stays off for every NCCL run; its point-to-point calls need none.
export NCCL_NVLS_ENABLE=0

# Ranks sharing a GPU: MPS for the run. HALOFLAG_MPS tells halo_bench how MPS came to be (or
# why not); it finds the daemon itself through CUDA_MPS_PIPE_DIRECTORY.
gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
mps_dir=
stop_mps() {
  if [[ -n $mps_dir ]]; then
    echo quit | nvidia-cuda-mps-control >/dev/null 2>&1 || true
    rm -rf "$mps_dir"
    echo "run: stopped the MPS daemon it started"
  fi
}
trap stop_mps EXIT
if (( gpus > 0 && ranks > gpus )); then
  if ! command -v nvidia-cuda-mps-control >/dev/null 2>&1; then
    export HALOFLAG_MPS="not available: nvidia-cuda-mps-control is not installed"
  elif echo get_server_list | nvidia-cuda-mps-control >/dev/null 2>&1; then
    export HALOFLAG_MPS="a daemon already running"
  else
    mps_dir=$(mktemp -d)
    export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    if nvidia-cuda-mps-control -d; then
      export HALOFLAG_MPS="started by scripts/run.sh for this run"
      echo "run: $ranks ranks share $gpus GPU(s): started an MPS daemon for the run"
    else
      rm -rf "$mps_dir"
      mps_dir=
      unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
      export HALOFLAG_MPS="not available: the MPS daemon did not start"
    fi
  fi
fi

# Both transports, so that the model's bound stands beside the MPI results (the shipped
# parameters have no node transport terms) and the node transport beside them.
transport=(--transport mpi,auto)
tune=(--tuning auto)
# --no-tune is this script's word, not passed on; halo_bench tunes only when told.
arguments=()
for argument in "$@"; do
  [[ $argument == --transport* ]] && transport=()
  [[ $argument == --no-tune || $argument == --tuning* ]] && tune=()
  [[ $argument == --no-tune ]] || arguments+=("$argument")
done
mpiexec -n "$ranks" "$bench" "${transport[@]}" "${tune[@]}" "${arguments[@]}"
