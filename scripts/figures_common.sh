# shellcheck shell=bash
# Sourced by the figure-family scripts (scripts/figures_*.sh): where a family's results go, the
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

# figures_two_gpu_env ROOT SCRIPT: the environment of the runs with one rank on each of two GPUs
# (HALOFLAG_GPU cuda, HALOFLAG_BUILD_DIR ROOT/build-gpu unless set, nvcc on PATH, Open MPI as
# root); stops, naming SCRIPT, unless the node has 2 GPUs: two ranks on one GPU are the MPS
# proxies, not these runs. HALOFLAG_GPU=none runs the host backend, to check a script without a
# GPU.
figures_two_gpu_env() {
  local root=$1 script=$2
  export HALOFLAG_GPU=${HALOFLAG_GPU:-cuda}
  export HALOFLAG_BUILD_DIR=${HALOFLAG_BUILD_DIR:-$root/build-gpu}
  export PATH=/usr/local/cuda/bin:$PATH
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  [[ $(nproc) -lt 2 ]] && export OMPI_MCA_rmaps_base_oversubscribe=1
  if [[ $HALOFLAG_GPU != none ]]; then
    local gpus
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
    if [[ $gpus -lt 2 ]]; then
      echo "$script: this node has ${gpus:-0} GPU(s); the run needs 2, one per rank" >&2
      exit 1
    fi
  fi
}
