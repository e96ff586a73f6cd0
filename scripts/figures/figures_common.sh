# shellcheck shell=bash
# Sourced by the figure-family scripts (scripts/figures/figures_*.sh): where a family's results go, the
# machine they came from, progress lines and the one tarball a GPU machine hands back.
# Not a script of its own.

# The machine's short name for docs/results/<machine>/: HALOFLAG_RESULTS_MACHINE when set, else
# the GPU model from nvidia-smi in lower case with the count when more than one ("h100",
# "h200x2"), else the host name.
figures_machine_name() {
  if [[ -n ${HALOFLAG_RESULTS_MACHINE:-} ]]; then
    echo "$HALOFLAG_RESULTS_MACHINE"
    return
  fi
  local names count model
  names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || true)
  if [[ -z $names ]]; then
    hostname -s
    return
  fi
  count=$(wc -l <<<"$names")
  # "NVIDIA H200" -> h200; "NVIDIA H100 80GB HBM3" -> h100: the first word after the vendor.
  model=$(head -1 <<<"$names" | sed -e 's/^NVIDIA //' -e 's/^Tesla //' | awk '{print tolower($1)}')
  if [[ $count -gt 1 ]]; then echo "${model}x$count"; else echo "$model"; fi
}

# OUT_DIR from the first argument when it does not look like an option, else
# docs/results/<machine>/<UTC date>. Sets figures_out (absolute) and figures_shift (how many
# arguments the caller drops before passing the rest to the benchmark).
# shellcheck disable=SC2034  # figures_out and figures_shift are the caller's
figures_resolve_out() {
  local root=$1
  shift
  if [[ $# -gt 0 && $1 != -* ]]; then
    figures_out=$1
    figures_shift=1
  else
    figures_out=$root/docs/results/$(figures_machine_name)/$(date -u +%Y-%m-%d)
    figures_shift=0
  fi
  mkdir -p "$figures_out"
  figures_out=$(cd "$figures_out" && pwd)
}

# figures_step I N TEXT: one progress line per step, on stderr so it stays out of the tables.
figures_step() {
  echo "== [$1/$2] $3 ($(date -u +%H:%M:%S))" >&2
}

# A python that imports matplotlib (pyenv's python3 may lack it where Debian's has it); empty
# when none does.
figures_plot_python() {
  local candidate
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import matplotlib' 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
}

# figures_build ROOT BUILD_DIR LOG TARGET...: configures BUILD_DIR once (Release, backend
# HALOFLAG_GPU or auto, the staged .deps), then builds the targets incrementally every time, so
# a stale binary is never measured. On failure prints the log's tail and exits.
figures_build() {
  local root=$1 build=$2 log=$3
  shift 3
  if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
      -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$log" 2>&1 ||
      { tail -30 "$log" >&2; exit 1; }
  fi
  local targets=()
  for target in "$@"; do targets+=(--target "$target"); done
  cmake --build "$build" -j "$(nproc)" "${targets[@]}" >>"$log" 2>&1 ||
    { tail -30 "$log" >&2; exit 1; }
}

# figures_build_baseline ROOT SOURCE BUILD LOG TARGET...: figures_build for another tree (the
# one an A/B compares with), which finds the staged dependencies of ROOT.
figures_build_baseline() {
  local root=$1 source=$2 build=$3 log=$4
  shift 4
  if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="${HALOFLAG_GPU:-auto}" \
      -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
  fi
  local targets=()
  for target in "$@"; do targets+=(--target "$target"); done
  cmake --build "$build" -j "$(nproc)" "${targets[@]}" >>"$log" 2>&1 ||
    { tail -30 "$log" >&2; exit 1; }
}

# figures_mpi_copy_info FILE: appends Open MPI's shared-memory single-copy mechanism, which
# decides how many times the CPUs copy each message (cma: once; none: twice).
figures_mpi_copy_info() {
  {
    echo "## Open MPI's shared-memory single-copy mechanism (btl_vader_single_copy_mechanism)"
    ompi_info --param btl vader --level 9 2>/dev/null | grep -i single_copy || echo "(not Open MPI)"
  } >>"$1"
}

# figures_machine_info FILE ROOT: GPUs, topology, CPU, versions and the commit, each probe
# allowed to fail (the file then says so instead of the run stopping).
figures_machine_info() {
  local file=$1 root=$2
  probe() {
    echo "## $*"
    "$@" 2>&1 || echo "(not available)"
    echo
  }
  {
    probe date -u +%Y-%m-%dT%H:%M:%SZ
    probe hostname
    probe uname -srm
    probe nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,memory.total,clocks.max.sm \
      --format=csv
    probe nvidia-smi topo -m
    probe lscpu
    probe nvcc --version
    probe mpirun --version
    # The MPI transport settings every mpiexec of the run inherits (Open MPI's shared-memory
    # single-copy mechanism alone moves cube-200 times by ~30% on H200 x2).
    probe sh -c 'env | grep -E "^(OMPI_MCA_|MPIR_CVAR_|MPICH_|UCX_)" | sort | grep . || echo "(none set)"'
    probe cmake --version
    probe c++ --version
    probe git -C "$root" rev-parse HEAD
    probe git -C "$root" status --short
  } >"$file"
  unset -f probe
}

# figures_tar OUT_DIR: when HALOFLAG_RESULTS_TAR names a file, every file under OUT_DIR (but
# tarballs) into it: the one file to fetch from a GPU machine.
figures_tar() {
  local out=$1 tarball=${HALOFLAG_RESULTS_TAR:-}
  [[ -n $tarball ]] || return 0
  mkdir -p "$(dirname "$tarball")"
  tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
  (cd "$out" && find . -type f ! -name '*.tar.gz' -printf '%P\n' | sort |
    tar -czf "$tarball" -T -)
  echo "wrote $tarball" >&2
}

# The number of GPUs nvidia-smi lists; 0 without a driver.
figures_gpu_count() {
  nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true
}

# figures_gpu_env ROOT SCRIPT RANKS: the environment of the runs with one rank on each of RANKS
# GPUs (HALOFLAG_GPU cuda, HALOFLAG_BUILD_DIR ROOT/build-gpu unless set, nvcc on PATH, Open MPI
# as root, oversubscribed where the cores are fewer than the ranks); stops, naming SCRIPT,
# unless the node has RANKS GPUs: several ranks on one GPU are the MPS proxies, not these runs.
# HALOFLAG_GPU=none runs the host backend, to check a script without a GPU.
figures_gpu_env() {
  local root=$1 script=$2 ranks=$3
  export HALOFLAG_GPU=${HALOFLAG_GPU:-cuda}
  export HALOFLAG_BUILD_DIR=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
  export PATH=/usr/local/cuda/bin:$PATH
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  [[ $(nproc) -lt $ranks ]] && export OMPI_MCA_rmaps_base_oversubscribe=1
  if [[ $HALOFLAG_GPU != none ]]; then
    local gpus
    gpus=$(figures_gpu_count)
    if [[ $gpus -lt $ranks ]]; then
      echo "$script: this node has ${gpus:-0} GPU(s); the run needs $ranks, one per rank" >&2
      exit 1
    fi
  fi
}

# figures_two_gpu_env ROOT SCRIPT: figures_gpu_env for one rank on each of two GPUs.
figures_two_gpu_env() {
  figures_gpu_env "$1" "$2" 2
}

# figures_run_logged COMMANDS LOG COMMAND...: the command line appended to the file COMMANDS and
# written to LOG, then the command run with its output appended to LOG and shown.
figures_run_logged() {
  local commands=$1 log=$2
  shift 2
  echo "\$ $*" | tee -a "$commands" >"$log"
  "$@" 2>&1 | tee -a "$log"
}

# figures_reduced_config ROOT BUILD DIR CUBE RANKS: the config of rank 21 of CUBE^3 cells on 4x4x4
# ranks replayed by RANKS ranks (2, 4 or 8; comb_configs/README.md): the shipped file, else one
# that BUILD's generator writes into DIR/configs.
figures_reduced_config() {
  local root=$1 build=$2 dir=$3 cube=$4 ranks=$5
  local name=comb_${cube}_np${ranks}_reduced.cfg
  if [[ -f $root/comb_configs/$name ]]; then
    echo "$root/comb_configs/$name"
    return
  fi
  mkdir -p "$dir/configs"
  "$build/comb_configs/haloflag_gen_config" --size "$cube" --divide 4,4,4 --periodic 1,1,1 \
    --ghost 1 --vars 3 --reduce-to-ranks "$ranks" --reduce-rank 21 \
    --output "$dir/configs/$name" >/dev/null
  echo "$dir/configs/$name"
}

# figures_build_tests ROOT BUILD LOG: configures BUILD with the tests on (once) and builds all of
# it, for a ctest run on the machine; on failure prints the log's tail and exits.
figures_build_tests() {
  local root=$1 build=$2 log=$3
  if [[ ! -f $build/CMakeCache.txt ]] || ! grep -q "HALOFLAG_BUILD_TESTS:BOOL=ON" "$build/CMakeCache.txt"; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU="$HALOFLAG_GPU" \
      -DHALOFLAG_BUILD_TESTS=ON -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$log" 2>&1 ||
      { tail -30 "$log"; exit 1; }
  fi
  cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1 || { tail -30 "$log"; exit 1; }
}
