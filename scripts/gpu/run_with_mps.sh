#!/usr/bin/env bash
# Runs a GPU test of RANKS ranks, under NVIDIA MPS when the ranks share a GPU.
#   scripts/gpu/run_with_mps.sh RANKS COMMAND...
# Persistent kernels of two processes cannot run side by side on one GPU without MPS: the GPU
# time-slices between the processes' contexts, and a kernel that waits for its peer's kernel
# waits a whole slice for every step. So when there are fewer GPUs than ranks, this starts an
# MPS control daemon for the command and stops it after, saying so; an MPS daemon already
# running is used as it is. Without nvidia-cuda-mps-control the test is skipped (exit 77) with
# that reason. Without a GPU the command runs as it is (its tests skip, saying why).
set -uo pipefail
ranks=$1
shift

gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
# The GPUs this process may use: CUDA_VISIBLE_DEVICES=0 makes a two-GPU machine a one-GPU one.
if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && (( gpus > 0 )); then
  IFS=, read -r -a visible <<<"$CUDA_VISIBLE_DEVICES"
  (( ${#visible[@]} < gpus )) && gpus=${#visible[@]}
fi
if (( gpus == 0 || gpus >= ranks )); then
  exec "$@"
fi
if ! command -v nvidia-cuda-mps-control >/dev/null 2>&1; then
  echo "SKIP: $ranks ranks share $gpus GPU(s) and nvidia-cuda-mps-control is not present:" \
    "persistent kernels of two processes cannot run side by side on one GPU without MPS"
  exit 77
fi
if echo get_server_list | nvidia-cuda-mps-control >/dev/null 2>&1; then
  echo "run_with_mps: $ranks ranks share $gpus GPU(s); using the MPS daemon already running"
  exec "$@"
fi
mps_dir=$(mktemp -d)
export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if ! nvidia-cuda-mps-control -d; then
  echo "SKIP: $ranks ranks share $gpus GPU(s) and the MPS daemon did not start"
  exit 77
fi
echo "run_with_mps: $ranks ranks share $gpus GPU(s); started MPS for this test"
"$@"
status=$?
echo quit | nvidia-cuda-mps-control
echo "run_with_mps: stopped MPS"
rm -rf "$mps_dir"
exit $status
