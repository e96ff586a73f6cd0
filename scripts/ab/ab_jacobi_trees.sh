#!/usr/bin/env bash
# Before/after A/B of source trees on Jacobi3D: each tree's haloflag_jacobi3d (CUDA, Release,
# tests off, built into SOURCE_DIR/build-ab-NAME) runs the conventional, resident and stream
# variants at 7 and 27 points on 2 ranks over the node transport. Each tree and stencil is first
# checked bit for bit against the single-rank reference (a difference stops the script, naming
# tree and stencil); then the timed runs go in rounds, the trees in turn inside each round
# (round r: tree A 7-point, tree B 7-point, tree A 27-point, tree B 27-point), so that a slow
# phase of the machine weighs on every tree alike. One GPU per rank where the node has as many
# GPUs as ranks (each rank takes the GPU of its node-local rank); else every rank on the one
# GPU under NVIDIA MPS, started here and stopped at exit, and the summary says so.
#   scripts/ab/ab_jacobi_trees.sh OUT_DIR NAME=SOURCE_DIR NAME=SOURCE_DIR [-- haloflag_jacobi3d options...]
#   e.g. git worktree add /tmp/before <commit>
#        scripts/ab/ab_jacobi_trees.sh out before=/tmp/before after=.
# The first tree is the baseline of the summary's ratios; more than two trees may be given.
# Options after -- go to every run (e.g. --precision float, --transport mpi) and replace the
# defaults they name (--local, --size, --transport, --variant, --iterations, --repeats, --warmup,
# --backend); --stencil, --check and --json are this script's.
# Environment: HALOFLAG_AB_ROUNDS (3), HALOFLAG_AB_ITERATIONS (200), HALOFLAG_AB_REPEATS (10),
# HALOFLAG_AB_WARMUP (1), HALOFLAG_AB_LOCAL (32), HALOFLAG_AB_RANKS (2), HALOFLAG_AB_STENCILS
# ("7 27"), HALOFLAG_AB_BUILD_ONLY=1 (build the trees and stop: a first device call),
# HALOFLAG_AB_LABELS ("name=commit ...": the commits of trees copied without .git),
# HALOFLAG_MPIEXEC_FLAGS (extra mpiexec options, e.g. "--map-by slot:PE=2"),
# HALOFLAG_CMAKE_ARGS (extra configure arguments; the staged .deps of this script's tree is
# passed when present), HALOFLAG_GPU (cuda; none builds and runs the host backend, to check this
# script without a GPU: not GPU results).
# Writes into OUT_DIR: trees.txt, settings.txt, machine.txt, commands.txt, build_NAME.log,
# check_NAME_sS.{txt,json}, time_NAME_sS_rR.{txt,json} and summary.md
# (scripts/ab/ab_jacobi_summary.py OUT_DIR, which prints it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../figures/figures_common.sh disable=SC1091  # followed with -x
source "$root/scripts/figures/figures_common.sh"
script=ab_jacobi_trees.sh
usage="usage: $script OUT_DIR NAME=SOURCE_DIR NAME=SOURCE_DIR... [-- haloflag_jacobi3d options...]"
fail() {  # fail MESSAGE...: the message on stderr, exit 1
  echo "$script: $*" >&2
  exit 1
}
usage_error() {
  echo "$script: $*" >&2
  echo "$usage" >&2
  exit 2
}

# ---- arguments
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || usage_error "OUT_DIR and two NAME=SOURCE_DIR are needed"
out=$1
shift
[[ $out != *=* && $out != -* ]] ||
  usage_error "the first argument is OUT_DIR, got '$out' (a NAME=SOURCE_DIR or an option)"
names=()
sources=()
while [[ $# -gt 0 && $1 != -- ]]; do
  [[ $1 == *=* ]] || usage_error "expected NAME=SOURCE_DIR or --, got '$1'"
  name=${1%%=*}
  source_dir=${1#*=}
  [[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
    usage_error "tree name '$name' must be letters, digits, '.', '_' or '-' (it names files)"
  for other in "${names[@]}"; do
    [[ $other != "$name" ]] || usage_error "tree name '$name' given twice"
  done
  [[ -n $source_dir && -d $source_dir ]] || usage_error "tree $name: '$source_dir' is not a directory"
  source_dir=$(cd "$source_dir" && pwd)
  [[ -f $source_dir/CMakeLists.txt && -f $source_dir/examples/jacobi3d/CMakeLists.txt ]] ||
    usage_error "tree $name: $source_dir is not a haloflag tree with examples/jacobi3d"
  names+=("$name")
  sources+=("$source_dir")
  shift
done
[[ ${#names[@]} -ge 2 ]] || usage_error "two trees are needed (NAME=SOURCE_DIR NAME=SOURCE_DIR)"
[[ ${1:-} == -- ]] && shift
extra=("$@")

given() {  # given OPTION: whether the options after -- name OPTION (as OPTION or OPTION=...)
  local arg
  for arg in "${extra[@]}"; do
    [[ $arg == "$1" || $arg == "$1="* ]] && return 0
  done
  return 1
}
for option in --stencil --check --json --help -h; do
  given "$option" && usage_error "$option is set by this script; leave it out of the options after --"
done

positive() {  # positive NAME VALUE: VALUE, after checking that it is a whole number >= 1
  [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "$1 must be a whole number >= 1, got '$2'"
  echo "$2"
}
rounds=$(positive HALOFLAG_AB_ROUNDS "${HALOFLAG_AB_ROUNDS:-3}")
iterations=$(positive HALOFLAG_AB_ITERATIONS "${HALOFLAG_AB_ITERATIONS:-200}")
repeats=$(positive HALOFLAG_AB_REPEATS "${HALOFLAG_AB_REPEATS:-10}")
ranks=$(positive HALOFLAG_AB_RANKS "${HALOFLAG_AB_RANKS:-2}")
warmup=${HALOFLAG_AB_WARMUP:-1}
[[ $warmup =~ ^[0-9]+$ ]] || usage_error "HALOFLAG_AB_WARMUP must be a whole number, got '$warmup'"
local_size=${HALOFLAG_AB_LOCAL:-32}
[[ $local_size =~ ^[0-9]+(,[0-9]+,[0-9]+)?$ ]] ||
  usage_error "HALOFLAG_AB_LOCAL must be N or X,Y,Z, got '$local_size'"
read -r -a stencils <<<"${HALOFLAG_AB_STENCILS:-7 27}"
[[ ${#stencils[@]} -ge 1 ]] || usage_error "HALOFLAG_AB_STENCILS is empty"
for stencil in "${stencils[@]}"; do
  [[ $stencil == 7 || $stencil == 27 ]] || usage_error "HALOFLAG_AB_STENCILS: 7 or 27, got '$stencil'"
done
read -r -a mpiexec_flags <<<"${HALOFLAG_MPIEXEC_FLAGS:-}"
gpu_backend=${HALOFLAG_GPU:-cuda}
case $gpu_backend in
  cuda) backend=cuda ;;
  none) backend=host ;;
  *) usage_error "HALOFLAG_GPU must be cuda or none, got '$gpu_backend'" ;;
esac

mkdir -p "$out"
out=$(cd "$out" && pwd)
command -v python3 >/dev/null || fail "python3 is needed for the summary"
command -v mpiexec >/dev/null || fail "mpiexec is not on PATH"
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[[ $(nproc) -lt $ranks ]] && export OMPI_MCA_rmaps_base_oversubscribe=1
: >"$out/commands.txt"
logged() {  # logged COMMAND...: the command line into commands.txt, then the command
  echo "\$ $*" >>"$out/commands.txt"
  "$@"
}

# ---- builds: each tree's haloflag_jacobi3d in SOURCE_DIR/build-ab-NAME
configure_args=(-DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="$gpu_backend" -DHALOFLAG_BUILD_TESTS=OFF)
[[ -d $root/.deps/root/usr ]] && configure_args+=(-DCMAKE_PREFIX_PATH="$root/.deps/root/usr")
read -r -a cmake_extra <<<"${HALOFLAG_CMAKE_ARGS:-}"
programs=()
# A tree's own commit: a copy without .git inside a checkout (git archive | tar) would otherwise
# be named after the checkout around it. HALOFLAG_AB_LABELS="name=commit ..." names such copies.
tree_describe() {  # tree_describe NAME DIR
  local label
  for label in ${HALOFLAG_AB_LABELS:-}; do
    [[ ${label%%=*} == "$1" ]] && { echo "${label#*=} (given)"; return; }
  done
  local top
  top=$(git -C "$2" rev-parse --show-toplevel 2>/dev/null) || { echo "not a git tree"; return; }
  if [[ $(cd "$2" && pwd -P) != $(cd "$top" && pwd -P) ]]; then
    echo "not a git tree (inside $top)"
    return
  fi
  git -C "$2" describe --always --dirty --tags 2>/dev/null || echo "not a git tree"
}
{
  echo "# name, source tree, git describe (each round runs the trees in this order; the first is the baseline)"
  for i in "${!names[@]}"; do
    describe=$(tree_describe "${names[$i]}" "${sources[$i]}")
    printf '%s\t%s\t%s\n' "${names[$i]}" "${sources[$i]}" "$describe"
  done
} >"$out/trees.txt"
total_steps=$((${#names[@]} + ${#names[@]} * ${#stencils[@]} + rounds))
step=0
for i in "${!names[@]}"; do
  name=${names[$i]}
  build=${sources[$i]}/build-ab-$name
  log=$out/build_$name.log
  figures_step $((++step)) "$total_steps" "build $name (${sources[$i]}) in $build"
  : >"$log"
  if ! logged cmake -S "${sources[$i]}" -B "$build" "${configure_args[@]}" "${cmake_extra[@]}" \
    >>"$log" 2>&1; then
    tail -30 "$log" >&2
    fail "configuring tree $name (${sources[$i]}) failed: $log"
  fi
  if ! logged cmake --build "$build" -j "$(nproc)" --target haloflag_jacobi3d >>"$log" 2>&1; then
    tail -40 "$log" >&2
    fail "building haloflag_jacobi3d of tree $name (${sources[$i]}) failed: $log"
  fi
  program=$build/examples/jacobi3d/haloflag_jacobi3d
  [[ -x $program ]] || fail "tree $name: the build left no $program ($log)"
  programs+=("$program")
done
figures_machine_info "$out/machine.txt" "$root"
figures_mpi_copy_info "$out/machine.txt"
{
  echo
  echo "## nvidia-smi -L"
  nvidia-smi -L 2>&1 || echo "(not available)"
  for i in "${!names[@]}"; do
    echo
    echo "## tree ${names[$i]}: ${sources[$i]}"
    if git -C "${sources[$i]}" rev-parse HEAD 2>/dev/null; then
      git -C "${sources[$i]}" describe --always --dirty --tags 2>&1 || true
      git -C "${sources[$i]}" status --short 2>&1 || true
    else
      echo "(not a git tree)"
    fi
  done
} >>"$out/machine.txt"
if [[ ${HALOFLAG_AB_BUILD_ONLY:-0} == 1 ]]; then
  echo "$script: built ${names[*]} (HALOFLAG_AB_BUILD_ONLY=1); nothing run" >&2
  exit 0
fi

# ---- GPUs: one per rank, or all ranks on one GPU under MPS
placement="host backend (HALOFLAG_GPU=none): $ranks ranks on the CPU, not GPU results"
if [[ $backend != host ]]; then
  gpus=$(figures_gpu_count)
  # The GPUs this process may use: CUDA_VISIBLE_DEVICES=0 makes a two-GPU node a one-GPU one.
  if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && ((gpus > 0)); then
    IFS=, read -r -a visible <<<"$CUDA_VISIBLE_DEVICES"
    ((${#visible[@]} < gpus)) && gpus=${#visible[@]}
  fi
  ((gpus > 0)) || fail "no GPU visible (nvidia-smi -L lists none); HALOFLAG_GPU=none checks the script on the host backend"
  if ((gpus >= ranks)); then
    # haloflag_jacobi3d binds each rank to the GPU of its node-local rank (--gpu unset); every
    # GPU stays visible to every rank, so the node transport can map its peers' device memory.
    placement="one GPU per rank: $ranks ranks on $gpus visible GPU(s), rank i on GPU i"
  else
    command -v nvidia-cuda-mps-control >/dev/null ||
      fail "$ranks ranks share $gpus GPU(s) and nvidia-cuda-mps-control is not present: persistent kernels of two processes cannot run side by side on one GPU without MPS"
    mps_dir=$(mktemp -d)
    export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    logged nvidia-cuda-mps-control -d || fail "the MPS control daemon did not start"
    trap 'echo quit | nvidia-cuda-mps-control >/dev/null 2>&1 || true; rm -rf "$mps_dir"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    placement="$ranks ranks sharing $gpus GPU(s) under NVIDIA MPS (nvidia-cuda-mps-control -d, started by this script): not one GPU per rank"
    echo "# the runs below: $placement (CUDA_MPS_PIPE_DIRECTORY=$CUDA_MPS_PIPE_DIRECTORY)" >>"$out/commands.txt"
  fi
fi
echo "$script: $placement" >&2

# ---- the runs
# The options of every run: the defaults that the options after -- do not name, then those.
base_options=()
given --variant || base_options+=(--variant all)
given --backend || base_options+=(--backend "$backend")
given --local || given --size || base_options+=(--local "$local_size")
given --transport || base_options+=(--transport node)
given --iterations || base_options+=(--iterations "$iterations")
timed_options=()
given --repeats || timed_options+=(--repeats "$repeats")
given --warmup || timed_options+=(--warmup "$warmup")
# The check: one run of --iterations from the initial field per variant, compared with the
# single-rank reference; the one timed run it also makes is not used.
check_options=(--check)
given --repeats || check_options+=(--repeats 1)
given --warmup || check_options+=(--warmup 0)

{
  echo "ranks: $ranks"
  echo "placement: $placement"
  echo "rounds: $rounds"
  echo "stencils: ${stencils[*]}"
  echo "mpiexec flags: ${mpiexec_flags[*]}"
  echo "options of every run: ${base_options[*]} ${extra[*]}"
  echo "timed runs add: ${timed_options[*]}"
  echo "checks add: ${check_options[*]}"
} >"$out/settings.txt"

run_jacobi() {  # run_jacobi TREE_INDEX STENCIL FILE_STEM OPTIONS...: one run, output in STEM.txt
  local i=$1 stencil=$2 stem=$3
  shift 3
  local command=(mpiexec "${mpiexec_flags[@]}" -n "$ranks" "${programs[$i]}" --stencil "$stencil"
    "${base_options[@]}" "$@" --json "$out/$stem.json" "${extra[@]}")
  echo "\$ ${command[*]}" | tee -a "$out/commands.txt" >"$out/$stem.txt"
  # mpiexec reads standard input: keep it off this script's.
  "${command[@]}" >>"$out/$stem.txt" 2>&1 </dev/null
}

for i in "${!names[@]}"; do
  for stencil in "${stencils[@]}"; do
    stem=check_${names[$i]}_s$stencil
    figures_step $((++step)) "$total_steps" "check tree ${names[$i]}, $stencil-point"
    status=0
    run_jacobi "$i" "$stencil" "$stem" "${check_options[@]}" || status=$?
    if ((status != 0)); then
      tail -25 "$out/$stem.txt" >&2
      if grep -q 'DIFFERS' "$out/$stem.txt"; then
        fail "tree ${names[$i]} (${sources[$i]}), $stencil-point: the bit-for-bit check failed: $out/$stem.txt"
      fi
      fail "tree ${names[$i]} (${sources[$i]}), $stencil-point: the check run failed (exit $status): $out/$stem.txt"
    fi
  done
done

for ((round = 1; round <= rounds; ++round)); do
  figures_step $((++step)) "$total_steps" "round $round of $rounds"
  for stencil in "${stencils[@]}"; do
    for i in "${!names[@]}"; do
      stem=time_${names[$i]}_s${stencil}_r$round
      status=0
      run_jacobi "$i" "$stencil" "$stem" "${timed_options[@]}" || status=$?
      if ((status != 0)); then
        tail -25 "$out/$stem.txt" >&2
        fail "tree ${names[$i]} (${sources[$i]}), $stencil-point, round $round: the run failed (exit $status): $out/$stem.txt"
      fi
      echo "== ${names[$i]}, $stencil-point, round $round" >&2
      sed -n '/^variant  /,/^$/p' "$out/$stem.txt" >&2
    done
  done
done

python3 "$root/scripts/ab/ab_jacobi_summary.py" "$out"
