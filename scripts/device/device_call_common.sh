# shellcheck shell=bash
# What the device calls recorded in docs/results/**/device_call.sh share. A record runs from the
# repository root on the GPU machine (the device tool's copy of the tree, with .deps from
# scripts/stage_offline_deps.sh carried), sets its own shell options, sources this file and keeps
# only its own steps; what it writes under $OUT comes back. Not a script of its own.

# CUDA's tools first; Open MPI started as root, as the machines run it; NVLink multicast off, as
# the machines require of NCCL.
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0
root=$PWD

# Open MPI's shared memory without its single copy (CMA), as the machines are set; the records whose
# runs had it call this.
single_copy_none() { export OMPI_MCA_btl_vader_single_copy_mechanism=none; }

# call_clock LIMIT: starts the call's clock. left prints the seconds left of LIMIT (CALL_LIMIT, when
# set, replaces it), elapsed the seconds since the start; steps give their timeouts from them.
call_clock() {
  call_start=$(date +%s)
  call_limit=${CALL_LIMIT:-$1}
}
left() { echo $((call_limit - ($(date +%s) - call_start))); }
elapsed() { echo $(($(date +%s) - call_start)); }

# work_folder NAME TARBALL: $o is $OUT/NAME; when the call ends, however it ends, it is packed into
# $OUT/TARBALL and removed, so that one file comes back.
work_folder() {
  work_name=$1
  work_tarball=$OUT/$2
  o=$OUT/$work_name
  mkdir -p "$o"
  trap pack_work EXIT
}
pack_work() { tar -czf "$work_tarball" -C "$OUT" "$work_name" && rm -rf "$o"; }

# step_call LIMIT: a call of one step (STEP) within LIMIT seconds; its work in $o, $OUT/work, packed
# into $OUT/STEP.tar.gz; the GPUs and the commit recorded first.
# shellcheck disable=SC2153  # STEP is the caller's
step_call() {
  call_clock "$1"
  work_folder work "$STEP.tar.gz"
  cards_and_tree
}

# ranked_call LIMIT: the opening of a call of STEPS on RANKS ranks (2) in ROUNDS rounds (3), within
# LIMIT seconds: Open MPI without CMA, $o packed into $OUT/npRANKS_STEPS.tar.gz, $build the
# folder build-gpu, and `shared` the MPS prefix where the machine has fewer GPUs than ranks.
# shellcheck disable=SC2034  # ranks, rounds and build are the caller's
ranked_call() {
  single_copy_none
  call_clock "$1"
  ranks=${RANKS:-2}
  rounds=${ROUNDS:-3}
  work_folder w "np${ranks}_${STEPS// /_}.tar.gz"
  build=$root/build-gpu
  mps_when_shared "$ranks"
}

# before_after_call: the opening of a call that sets the tree before (.ab/before, built into
# build-before) against this tree (build-gpu), both outside what is carried so that a warm machine
# keeps them: Open MPI without CMA, a 580 s clock, $o packed into $OUT/STEPS.tar.gz, rounds
# (ROUNDS, 2) and builds[before|after]; jacobi3d TREE and jacobi2d TREE print a tree's program.
# shellcheck disable=SC2034  # rounds is the caller's
before_after_call() {
  single_copy_none
  call_clock 580
  work_folder w "${STEPS// /_}.tar.gz"
  rounds=${ROUNDS:-2}
  declare -gA builds=([before]=$root/build-before [after]=$root/build-gpu)
}
# this_tree_call: before_after_call for a call of this tree alone: $build is its build folder,
# $ranks RANKS (2), `shared` the MPS prefix where the machine has fewer GPUs than ranks, and the
# GPUs and the commit are recorded.
# shellcheck disable=SC2034  # build and ranks are the caller's
this_tree_call() {
  before_after_call
  build=${builds[after]}
  ranks=${RANKS:-2}
  mps_when_shared "$ranks"
  cards_and_tree
}
jacobi3d() { echo "${builds[$1]}/examples/jacobi3d/haloflag_jacobi3d"; }
jacobi2d() { echo "${builds[$1]}/examples/jacobi2d/haloflag_jacobi2d"; }

# jacobi2d_form STEP NAME RANKS TREE N NCCHECK [OPTIONS...]: one run of TREE's jacobi2d, of
# VARIANTS (resident), on a grid of N x N cells (N: NX or NXxNY for NX x NY), -niter 1000 (200
# from 4096 columns), 1 warm-up and 5 timed runs, within the call's time, into
# $o/STEP/NAME.{json,txt}; each variant's median, p10 and p90 per iteration, its update alone
# and the launch it describes in $o/STEP/summary.txt and on stdout.
jacobi2d_form() {
  local step=$1 name=$2 nranks=$3 tree=$4 nx=${5%x*} ny=${5#*x} nccheck=$6
  shift 6
  local niter=1000 prefix=()
  ((nx >= 4096)) && niter=200
  ((nranks > 1)) && prefix=("${shared[@]}")
  (($(left) > 40)) || return 0
  timeout 60 "${prefix[@]}" mpiexec -n "$nranks" "$(jacobi2d "$tree")" -nx "$nx" -ny "$ny" \
    -niter "$niter" -nccheck "$nccheck" --variant "${VARIANTS:-resident}" --warmup 1 \
    --repeats 5 "$@" \
    --json "$o/$step/$name.json" >"$o/$step/$name.txt" 2>&1
  python3 - "$o/$step/$name.json" "$name" <<'PY' | tee -a "$o/$step/summary.txt"
import json, sys
try:
    run = json.load(open(sys.argv[1]))
except (OSError, ValueError) as error:
    print(f"{sys.argv[2]}: no report ({error})")
    sys.exit(0)
for v in run["variants"]:
    s, u = v["summary_us"], v["update"]
    print(f"{sys.argv[2]} {v['variant']}: median {s['median']:.2f}"
          f" p10 {s['p10']:.2f} p90 {s['p90']:.2f} us;"
          f" update {u['us_per_iteration']:.2f} us ({u['fraction_of_copy_rate']:.2f});"
          f" {'identical' if v['check']['identical'] else 'DIFFERS'}; {v['launch']}")
PY
}

# jacobi2d_trees_in_turn STEP RANKS SHAPES: jacobi2d_form of each tree of the caller's `trees`
# (names of builds) at each of SHAPES on RANKS ranks, the norm every iteration and every 100,
# $rounds rounds, their order turned by one every round.
jacobi2d_trees_in_turn() {
  local step=$1 nranks=$2 shapes=$3 turn=("${trees[@]}") round shape nccheck tree
  mkdir -p "$o/$step"
  for round in $(seq 1 "$rounds"); do
    for shape in $shapes; do
      for nccheck in 1 100; do
        for tree in "${turn[@]}"; do
          jacobi2d_form "$step" "${shape}_c${nccheck}_${tree}_r$round" "$nranks" "$tree" \
            "$shape" "$nccheck"
        done
      done
    done
    turn=("${turn[@]:1}" "${turn[0]}")
  done
}

# trees_step STEP: one step of a call that sets the tree before against this tree on one GPU
# (this_tree_call, use_prebuilt, the caller's `trees`):
#   tests  this tree's GPU tests of the whole exchange from the kernel, the self transport, the
#          strategies and both examples' references (GPU_TESTS, a ctest regex, narrows them)
#   one    one rank's resident jacobi2d at SHAPES (1024x513 1024 4096x2049: 1024 x 513 and
#          4096 x 2049 are the rows a rank of two holds, its exchange going to itself) in turn
#   two    the same on two ranks sharing the GPU under NVIDIA MPS at 1024^2
#   j3d    Jacobi3D at SIZES_3D (32) per rank, 7 and 27 points, checked, on two ranks under MPS
#          (j3d_two/) and one (j3d_one/)
#   halo   halo_bench's resident over node at CUBES (200 800) on two ranks under MPS
# each into $o/STEP, with the time left after it.
trees_step() {
  case $1 in
    tests)
      local tests="embedded_whole|self_transport_cuda|exchange_strategies_cuda"
      tests+="|jacobi2d_reference_cuda|jacobi3d_reference_cuda"
      GPU_TESTS=${GPU_TESTS:-$tests} TEST_SECONDS=200 stencil_gpu_tests
      ;;
    one) jacobi2d_trees_in_turn one 1 "${SHAPES:-1024x513 1024 4096x2049}" ;;
    two) jacobi2d_trees_in_turn two 2 1024 ;;
    j3d)
      jacobi3d_trees j3d_two "${SIZES_3D:-32}"
      local ranks=1 shared=()  # one rank, seen by the functions called from here on
      jacobi3d_trees j3d_one "${SIZES_3D:-32}"
      ;;
    halo) halo_bench_trees halo ;;
    *) echo "unknown step $1" >&2; return 1 ;;
  esac
  echo "$1: $(left) s left"
}

# rate3d NAME TREE LOCAL STENCIL ITERATIONS: one rank's Jacobi3D of TREE, every variant, into
# $o/rates/NAME.{json,txt}; each variant's update alone (µs, fraction of the copy rate) on stdout
# and in $o/rates/summary.txt.
rate3d() {
  local name=$1 tree=$2 cells=$3 stencil=$4 iterations=$5
  timeout 60 mpiexec -n 1 "$(jacobi3d "$tree")" --local "$cells" --stencil "$stencil" \
    --variant all --iterations "$iterations" --repeats 5 \
    --json "$o/rates/$name.json" >"$o/rates/$name.txt" 2>&1
  echo "$name: $(grep -A5 '^update alone' "$o/rates/$name.txt" | grep -E '%$' |
    awk '{printf "%s %s %s; ", $1, $2, $5}')" | tee -a "$o/rates/summary.txt"
}

# rates_in_turn NAMER TREE...: rate3d of each TREE at 128^3 and 256^3 cells, 7 and 27 points
# (200 and 50 iterations), the trees in turn, their order turned by one every round, $rounds
# rounds from FIRST_ROUND (1), while the call has time; `NAMER LOCAL STENCIL TREE ROUND` prints
# each run's name.
rates_in_turn() {
  local namer=$1 turn=("${@:2}") first=${FIRST_ROUND:-1} k round shape
  local cells stencil iterations tree
  mkdir -p "$o/rates"
  for ((k = 1; k < first; ++k)); do turn=("${turn[@]:1}" "${turn[0]}"); done
  for round in $(seq "$first" $((first + rounds - 1))); do
    for shape in "128 7 200" "128 27 200" "256 7 50" "256 27 50"; do
      read -r cells stencil iterations <<<"$shape"
      for tree in "${turn[@]}"; do
        (($(left) > 30)) || return 0
        rate3d "$("$namer" "$cells" "$stencil" "$tree" "$round")" "$tree" "$cells" "$stencil" \
          "$iterations"
      done
    done
    turn=("${turn[@]:1}" "${turn[0]}")
  done
}

# jacobi3d_rows FILE: a Jacobi3D run's medians per iteration, then each update alone against the
# copy rate.
jacobi3d_rows() {
  awk '/^variant +median/ {t = 1; next} /^variant +update/ {u = 1; next}
      t && NF == 0 {t = 0} u && NF == 0 {u = 0}
      t {printf "%s %s  ", $1, $2} u {printf "%s upd %s %s  ", $1, $2, $NF}' "$1"
}

# jacobi3d_run STEP NAME OPTIONS...: one Jacobi3D run over node of TREE's program (after: this
# tree, the default; before: .ab/before's) into $o/STEP/NAME.{json,txt}, of VARIANTS
# (conventional_overlap,resident), within the call's time; its rows, the resident grid and any
# check's verdict on stdout and in $o/STEP/summary.txt.
jacobi3d_run() {
  local step=$1 name=$2
  shift 2
  (($(left) > 25)) || return 1
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$(jacobi3d "${TREE:-after}")" --transport node \
    --repeats 10 --variant "${VARIANTS:-conventional_overlap,resident}" "$@" \
    --json "$o/$step/$name.json" >"$o/$step/$name.txt" 2>&1
  echo "$name: $(jacobi3d_rows "$o/$step/$name.txt")" \
    "[$(grep -oE 'cooperative grid: [0-9]+ blocks x [0-9]+' "$o/$step/$name.txt" | head -1)]" \
    "$(grep -oE 'all [0-9]+ cells identical|differ[^.]*' "$o/$step/$name.txt" | head -1)" |
    tee -a "$o/$step/summary.txt"
}

# jacobi3d_two_forms STEP FORM_A FORM_B: jacobi3d_run into $o/STEP at SIZES_3D cells per rank
# (256 128 64 32), 7 and 27 points, once with the option FORM_A and once with FORM_B, their order
# swapped every other round, ROUNDS rounds (2); 50 iterations at 256^3 and 200 below, checked
# against the single-rank reference up to CHECK_UP_TO cells a side (0: none). Each run is named
# j3dSIZE_POINTSpt_FORM_rROUND, FORM without its leading dashes.
jacobi3d_two_forms() {
  local step=$1 forms=("$2" "$3")
  mkdir -p "$o/$step"
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for local in ${SIZES_3D:-256 128 64 32}; do
      local check=()
      ((local <= ${CHECK_UP_TO:-0})) && check=(--check)
      for points in 7 27; do
        for form in "${forms[@]}"; do
          jacobi3d_run "$step" "j3d${local}_${points}pt_${form#--}_r$round" --local "$local" \
            --stencil "$points" --iterations $((local >= 256 ? 50 : 200)) "${check[@]}" \
            "$form" || return 1
        done
      done
    done
    forms=("${forms[1]}" "${forms[0]}")
  done
}

# jacobi3d_trees STEP SIZES: jacobi3d_run into $o/STEP at SIZES cells per rank, 7 and 27 points,
# the tree before and this tree in turn (TREES_3D names others, as "first after"; their order
# swapped every other round), $rounds rounds;
# 50 iterations at 256^3 and 200 below, checked against the single-rank reference up to 64^3.
# Each run is named j3dSIZE_POINTSpt_TREE_rROUND.
jacobi3d_trees() {
  local step=$1 sizes=$2 turn
  read -ra turn <<<"${TREES_3D:-before after}"
  mkdir -p "$o/$step"
  for round in $(seq 1 "$rounds"); do
    for local in $sizes; do
      local check=()
      ((local <= 64)) && check=(--check)
      for points in 7 27; do
        for tree in "${turn[@]}"; do
          TREE=$tree jacobi3d_run "$step" "j3d${local}_${points}pt_${tree}_r$round" \
            --local "$local" --stencil "$points" --iterations $((local >= 256 ? 50 : 200)) \
            "${check[@]}" || return 1
        done
      done
    done
    turn=("${turn[1]}" "${turn[0]}")
  done
}

# build_before_in_background JOBS TARGET...: the tree before configured (tests off) and those of
# its targets built in the background, the logs in $o; wait_for_before waits for that build (by
# its process: a bare `wait` returns 0 whatever its jobs returned), ends the call if it failed,
# then waits for whatever else the caller left running beside it.
build_before_in_background() {
  local jobs=$1
  shift
  echo "before: $(cat .ab/before/TREE 2>/dev/null || echo '(named in the README)')"
  configure_cuda .ab/before "${builds[before]}" "$o/configure_before.log" \
    -DHALOFLAG_BUILD_TESTS=OFF || { tail -30 "$o/configure_before.log"; exit 1; }
  cmake --build "${builds[before]}" -j "$jobs" --target "$@" >"$o/build_before.log" 2>&1 &
  before_build=$!
}
wait_for_before() {
  wait "$before_build" || { grep -B2 -A8 "error:" "$o/build_before.log" | head -60; exit 1; }
  wait
}

# links_table BEFORE_SOURCE AFTER_PATCH ROUTES: the table of links (scripts/bench/
# jacobi_resident_breakdown.sh, setting 0) of the tree in BEFORE_SOURCE with the 2026-11-28
# stamps.patch (it fits the trees to ecf0090), and of this tree with AFTER_PATCH once per route of
# ROUTES (HALOFLAG_BREAKDOWN_ROUTES); both copies built first, then run one after the other,
# LINK_ROUNDS rounds (2); the table into $o/links.md and on stdout.
links_table() {
  local before_source=$1 after_patch=$2 routes=$3
  local old_patch=$root/docs/results/h200x2/2026-11-28_whole_exchange_links/stamps.patch
  local breakdown=scripts/bench/jacobi_resident_breakdown.sh
  export HALOFLAG_BREAKDOWN_SETTINGS=0 HALOFLAG_BREAKDOWN_ROUNDS=${LINK_ROUNDS:-2}
  HALOFLAG_BREAKDOWN_BUILD_ONLY=1 HALOFLAG_BREAKDOWN_LABEL=before \
    "$breakdown" "$o/links_before" "$before_source" "$old_patch" &
  HALOFLAG_BREAKDOWN_BUILD_ONLY=1 "$breakdown" "$o/links_after" "$root" "$after_patch" &
  wait
  echo "links built: $(left) s left"
  HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_LABEL=before timeout $(($(left) / 3)) \
    "$breakdown" "$o/links_before" "$before_source" "$old_patch"
  HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_LABEL=after HALOFLAG_BREAKDOWN_ROUTES=$routes \
    timeout $(($(left) - 10)) "$breakdown" "$o/links_after" "$root" "$after_patch"
  scripts/tables/resident_links_table.py "$o/links_before/runs.txt" "$o/links_after/runs.txt" |
    tee "$o/links.md"
  rm -rf "$o/links_before/tree" "$o/links_after/tree"
  echo "links: $(left) s left"
}

# shellcheck disable=SC2154  # peer is the caller's
# stencils_of 2d|3d: scripts/bench/bench_stencils.sh on $ranks ranks from $build, within the
# call's time: jacobi2d beside its peer ($peer) into $o/stencils2d, or Jacobi3D alone (SIZES_3D,
# every size by default) into $o/stencils3d.
stencils_of() {
  if [[ $1 == 2d ]]; then
    SIZES_3D=" " HALOFLAG_BUILD_DIR=$build PEER_BUILD=$peer RANKS=$ranks RUN_LIMIT=100 \
      timeout $(($(left) - 10)) scripts/bench/bench_stencils.sh "$o/stencils2d"
  else
    SIZES_2D=" " HALOFLAG_BUILD_DIR=$build RANKS=$ranks RUN_LIMIT=120 \
      timeout $(($(left) - 10)) scripts/bench/bench_stencils.sh "$o/stencils3d"
  fi
  echo "bench$1: $(left) s left"
}

# halo_bench_node PROGRAM DIR NAME CUBE STRATEGY [OPTIONS...]: one run of halo_bench PROGRAM,
# 1000 verified exchanges over node of the 2-rank config of CUBE on $ranks ranks, into
# DIR/NAME.{json,txt}; its strategy's row on stdout.
halo_bench_node() {
  local program=$1 dir=$2 name=$3 cube=$4 strategy=$5
  shift 5
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$program" \
    --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" --strategy "$strategy" \
    --transport node --tuning fixed --rounds 1 --iterations 1000 --progress 0 "$@" \
    --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
  echo "$name: $(grep -E "^$strategy " "$dir/$name.txt" | head -1)"
}

# halo_bench_trees STEP: halo_bench_node of the tree before and this tree in turn (their order
# turned every round), resident at CUBES (200 800), $rounds rounds, into $o/STEP; the rows in
# $o/STEP/summary.txt and on stdout.
halo_bench_trees() {
  local step=$1 turn=(before after)
  mkdir -p "$o/$step"
  for round in $(seq 1 "$rounds"); do
    for cube in ${CUBES:-200 800}; do
      for tree in "${turn[@]}"; do
        (($(left) > 30)) || return 0
        halo_bench_node "${builds[$tree]}/bench/halo_bench" "$o/$step" "${tree}_${cube}_r$round" \
          "$cube" resident | tee -a "$o/$step/summary.txt"
      done
    done
    turn=("${turn[1]}" "${turn[0]}")
  done
}

# jacobi32_lines DIR POINTS LINES ROUND: Jacobi3D of $build at 32^3 cells per rank over node,
# conventional_overlap and resident, checked, the node peers in lines up to LINES bytes (0:
# none), into DIR/j32_POINTSpt_linesLINES_rROUND.{json,txt}; its two rows on stdout.
jacobi32_lines() {
  local dir=$1 points=$2 lines=$3
  local name=j32_${points}pt_lines${lines}_r$4
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$build/examples/jacobi3d/haloflag_jacobi3d" \
    --variant conventional_overlap,resident --stencil "$points" --local 32,32,32 \
    --transport node --iterations 200 --repeats 5 --check --no-update-rate \
    --node-lines-up-to-bytes "$lines" --json "$dir/$name.json" >"$dir/$name.txt" 2>&1
  echo "$name:"
  grep -E "^ *(conventional_overlap|resident) " "$dir/$name.txt" | head -2
}

# cards FILE: the GPUs (index, name, driver, memory) into FILE.
cards() {
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$1" 2>&1 || true
}

# cards_and_tree: the GPUs into $o/gpus.txt and on stdout, the commit into $o/tree.txt.
cards_and_tree() {
  cards "$o/gpus.txt"
  git -C "$root" log --oneline -1 >"$o/tree.txt" 2>&1 || true
  cat "$o/gpus.txt"
}

# mps_when_shared RANKS: sets shared to the prefix that runs RANKS ranks under NVIDIA MPS when the
# machine has fewer GPUs than ranks (a proxy, which the records say), else to nothing.
# shellcheck disable=SC2034  # shared is the caller's
mps_when_shared() {
  shared=()
  if (($(nvidia-smi -L | grep -c '^GPU ') < $1)); then shared=(scripts/gpu/run_with_mps.sh "$1"); fi
}

# use_prebuilt: each build of .prebuilt's archive (scripts/device/prebuild.sh, carried), a folder
# of this repository, unpacked into place once every program in it finds its shared libraries on
# this machine; the call ends, naming what is missing, where one does not. NCCL was linked from
# the CUDA toolkit's folder there; here it is python3's package (cmake/nccl_python_dirs.py),
# added to the loader's path.
use_prebuilt() {
  local packed name missing nccl names
  for nccl in $(python3 "$root/cmake/nccl_python_dirs.py" 2>/dev/null); do
    export LD_LIBRARY_PATH=$nccl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
  for packed in "$root"/.prebuilt/*.tar.xz; do
    [[ -f $packed ]] || continue
    mapfile -t names < <(tar -tJf "$packed" | awk -F/ 'NF > 2 {print $2}' | sort -u)
    for name in "${names[@]}"; do rm -rf "${root:?}/$name"; done
    tar -C "$root" -xJf "$packed"
    for name in "${names[@]}"; do
      missing=$(find "$root/$name" -type f -perm -u+x ! -name '*.so*' -exec ldd {} + 2>/dev/null |
        grep "not found" | sort -u)
      [[ -z $missing ]] || { echo "prebuilt $name cannot run here: $missing"; exit 1; }
      echo "prebuilt $name: $(cat "$root/$name/TREE")"
    done
  done
}

# configure_cuda SOURCE BUILD LOG [CMAKE_ARGS...]: CMake for the CUDA backend, Release, finding the
# staged dependencies in .deps; its output into LOG.
configure_cuda() {
  local source=$1 build=$2 log=$3
  shift 3
  cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHALOFLAG_GPU=cuda "$@" \
    -DCMAKE_PREFIX_PATH="$root/.deps/root/usr" >"$log" 2>&1
}

# build_everything BUILD CONFIGURE_LOG BUILD_LOG SHOWN [CMAKE_ARGS...]: this tree with its tests,
# every target; when the build fails, the last SHOWN lines of its log, and the call ends.
build_everything() {
  local build=$1 configure_log=$2 build_log=$3 shown=$4
  shift 4
  configure_cuda . "$build" "$configure_log" -DHALOFLAG_BUILD_TESTS=ON "$@"
  cmake --build "$build" -j "$(nproc)" >"$build_log" 2>&1 ||
    { tail -"$shown" "$build_log"; exit 1; }
}

# build_into FOLDER [CMAKE_ARGS...]: build_everything into $b, $root/FOLDER, the logs in $o; the
# time left after.
build_into() {
  b=$root/$1
  shift
  build_everything "$b" "$o/configure.log" "$o/build.log" 30 "$@"
  echo "built: $(left) s left"
}

# configure_or_stop [CMAKE_ARGS...]: configure_cuda of this tree into $build, its output in
# $o/configure.log; when it fails, the log's end, and the call ends.
configure_or_stop() {
  configure_cuda . "$build" "$o/configure.log" "$@" || { tail -30 "$o/configure.log"; exit 1; }
}

# build_or_errors JOBS TARGET...: those targets of $build, the output in $o/build.log; when the
# build fails, its errors with their context, and the call ends.
build_or_errors() {
  local jobs=$1
  shift
  cmake --build "$build" -j "$jobs" --target "$@" >"$o/build.log" 2>&1 ||
    { grep -B2 -A8 "error:" "$o/build.log" | head -60; exit 1; }
}

# in_build BUILD FILE COMMAND...: COMMAND run in the folder BUILD (ctest), its output into FILE.
in_build() {
  local build=$1 file=$2
  shift 2
  (cd "$build" && "$@") >"$file" 2>&1
}

# gpu_tests_of REGEX SECONDS SHOWN: the GPU tests of $b that match REGEX, within SECONDS, into
# $o/ctest_gpu.txt; the last SHOWN lines of their summary, and the time left.
gpu_tests_of() {
  in_build "$b" "$o/ctest_gpu.txt" timeout "$2" ctest -L gpu --timeout 100 --output-on-failure \
    -R "$1"
  grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped|Total Test" "$o/ctest_gpu.txt" |
    tail -"$3"
  echo "tested: $(left) s left"
}

# build_this_tree TARGET...: this tree's TARGETs, tests configured, into $build on every core.
build_this_tree() {
  configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
  build_or_errors "$(nproc)" "$@"
  echo "built: $(left) s left"
}

# stencil_gpu_tests: gpu_tests_of in $build for the GPU tests of both stencil examples against
# their references and of the whole exchange from the kernel (GPU_TESTS, a ctest regex, narrows
# them), within TEST_SECONDS (150).
stencil_gpu_tests() {
  local b=$build
  gpu_tests_of "${GPU_TESTS:-jacobi2d_reference|jacobi3d_reference|embedded_whole}" \
    "${TEST_SECONDS:-150}" 30
}

# stencil_sizes: both examples' variants at every size from $build on $ranks ranks
# (scripts/bench/bench_stencils.sh, without NVIDIA's program; SIZES_2D narrows jacobi2d's), the
# tables in $o/stencils/summary.md.
stencil_sizes() {
  SIZES_2D=${SIZES_2D:-1024 4096 16384} HALOFLAG_BUILD_DIR=$build PEER_BUILD="" \
    RANKS=$ranks RUN_LIMIT=100 timeout $(($(left) - 10)) \
    scripts/bench/bench_stencils.sh "$o/stencils"
  echo "sizes: $(left) s left"
}

# jacobi_variants BUILD DIR STENCIL SECONDS: Jacobi3D's variants, checked, 32^3 per rank over the
# node transport on 2 ranks, into DIR/jacobi_sSTENCIL.{json,txt}.
jacobi_variants() {
  local build=$1 dir=$2 stencil=$3
  timeout "$4" mpiexec -np 2 "$build/examples/jacobi3d/haloflag_jacobi3d" --local 32 \
    --stencil "$stencil" --variant all --check --iterations 200 --repeats 10 --transport node \
    --json "$dir/jacobi_s$stencil.json" >"$dir/jacobi_s$stencil.txt" 2>&1 ||
    echo "jacobi $stencil failed"
}

# jacobi_ab_within ROUNDS BEFORE SPARE: Jacobi3D's A/B of .ab/before (commit BEFORE) against this
# tree, ROUNDS rounds, within the call's time less SPARE seconds, into $o/jab; the log's end when it
# fails or is cut.
jacobi_ab_within() {
  HALOFLAG_AB_ROUNDS=$1 HALOFLAG_AB_LABELS="before=$2" \
    timeout $(($(left) - $3)) scripts/ab/ab_jacobi_trees.sh "$o/jab" before=.ab/before after=. \
    >"$o/jacobi_ab_log.txt" 2>&1 || { echo "A/B failed or cut"; tail -20 "$o/jacobi_ab_log.txt"; }
}

# The records of 2026-11-27 and 2026-11-28 that write straight into $out, the tree under test in
# $build (build-ab-after: Jacobi3D's A/B configures it first, with its tests off).

# ab_after_layout: Open MPI as the machines are set, $out ($OUT, else /tmp/out), $build.
ab_after_layout() {
  single_copy_none
  out=${OUT:-/tmp/out}
  build=$root/build-ab-after
}

# build_tests: this tree with its tests into $build, the logs in $out.
build_tests() {
  build_everything "$build" "$out/configure_tests.log" "$out/build_tests.log" 40
}

# run_gpu_tests NAME: ctest -L gpu, the table on stdout and in $out/NAME.txt.
run_gpu_tests() {
  in_build "$build" "$out/$1.txt" ctest -L gpu --timeout 200 --output-on-failure || true
  grep -E "tests passed|Failed|Not Run|\*\*\*|Passed|Skipped" "$out/$1.txt" | tail -60
}

# jacobi_ab_packed ROUNDS BEFORE: Jacobi3D's A/B of .ab/before (commit BEFORE) against this tree,
# ROUNDS rounds; its summary on stdout, its folder packed into $out/jacobi_ab.tar.gz. The status is
# the packing's: a step that goes on after it whatever happened says `|| true`.
jacobi_ab_packed() {
  HALOFLAG_AB_ROUNDS=$1 HALOFLAG_AB_LABELS="before=$2" \
    scripts/ab/ab_jacobi_trees.sh "$out/jab" before=.ab/before after=. \
    >"$out/jacobi_log.txt" 2>&1 || { tail -40 "$out/jacobi_log.txt"; }
  cat "$out/jab/summary.md" 2>/dev/null || true
  tar -czf "$out/jacobi_ab.tar.gz" -C "$out" jab && rm -rf "$out/jab"
}
