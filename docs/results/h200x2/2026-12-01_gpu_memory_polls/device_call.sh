#!/usr/bin/env bash
# Session 72's device calls on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried, and .ab: .ab/before, a copy of 3d09a48,
# `git archive 3d09a48 | tar -x -C .ab/before`, and patches that make other trees of that copy,
# since three copies do not fit in what a call carries: .ab/polls.patch, `git diff 3d09a48
# e436116`, and .ab/relay.patch, this folder's relay.patch). STEPS lists the steps of a call;
# the build folders are ignored, so a warm machine keeps them between calls. "This tree" was
# 298ddca in calls 1-3; the steps links_build and links ran on one H200, on 47226bb (the record
# h200/2026-12-01_host_started_links, its call 1).
#   builds      the three trees side by side: .ab/before into build-before (halo_bench and
#               Jacobi3D), e436116 into build-polls (halo_bench) and this tree into build-gpu
#               (the same and the GPU tests below)
#   relay_build the tree before with this tree's second change alone (.ab/relay.patch: the piece
#               grid's start relayed at device scope, every wait pausing as before) into
#               build-relay (halo_bench and Jacobi3D)
#   relay       halo_bench's resident over node at cubes 200 and 800, the tree before, that tree
#               and this tree in turn (their order turned every round), ROUNDS rounds (2), and
#               Jacobi3D at 32^3 and 128^3 (SIZES_3D), the tree before against that tree, 7 and
#               27 points; relay/summary.txt
#   links_build a copy of this tree with h200/2026-12-01_host_started_links/
#               host_links_47226bb.patch (device clock stamps in the resident piece grid,
#               measurement only; it fits 47226bb) into $o/links/tree, halo_bench alone
#   links       the table of links of the host-started resident exchange over node: that copy's
#               halo_bench at cubes 200 and 800 (CUBES), 1000 exchanges, no traced pass,
#               HALOFLAG_STAMPS=1, ROUNDS rounds (2); each rank prints each stamp's median after
#               the watcher saw the start; links/summary.txt
#   tests       this tree's GPU tests (GPU_TESTS, a ctest regex: the strategies, the
#               stream-ordered exchange, the resident kernels beside the program's own work, the
#               whole exchange from the kernel and Jacobi3D's reference)
#   halo_three  halo_bench's resident over node, cubes 200 and 800 (CUBES), 1000 verified
#               exchanges a run, the three trees in turn (their order turned every round), ROUNDS
#               rounds (2); the tree before also with --poll-backoff-ns 0, every GPU wait
#               without a pause; halo_three/summary.txt
#   jacobi      Jacobi3D at SIZES_3D (32 64 128 256), 7 and 27 points, every variant but the
#               plain loop, the tree before and this tree in turn (scripts/device/
#               device_call_common.sh, jacobi3d_trees), checked up to 64^3; jacobi/summary.txt
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
builds[polls]=$root/build-polls
builds[relay]=$root/build-relay
VARIANTS=conventional,conventional_overlap,stream,resident
gpu_tests='strategies_cuda|stream_exchange_cuda|resident_coexistence|embedded_whole'
gpu_tests+='|jacobi3d_reference'

# tree_of_patch NAME: .ab/NAME, the copy of the tree before with .ab/NAME.patch applied.
tree_of_patch() {
  rm -rf ".ab/$1" && cp -r .ab/before ".ab/$1" && patch -s -d ".ab/$1" -p1 <".ab/$1.patch" ||
    exit 1
}

# halo_resident STEP TREE CUBE ROUND [OPTIONS...]: one halo_bench run of TREE's build into
# $o/STEP/TREE[_backoff0]_CUBE_rROUND; its row on stdout and in STEP/summary.txt.
halo_resident() {
  local step=$1 tree=$2 cube=$3 round=$4 name=$2
  shift 4
  [[ $# -gt 0 ]] && name+=_backoff0
  (($(left) > 30)) || return 1
  halo_bench_node "${builds[$tree]}/bench/halo_bench" "$o/$step" "${name}_${cube}_r$round" \
    "$cube" resident "$@" | tee -a "$o/$step/summary.txt"
}

# build_links_copy JOBS: a copy of this tree with host_links_47226bb.patch into $o/links/tree, its
# halo_bench built there.
build_links_copy() {
  local copy=$o/links/tree
  rm -rf "$copy" && mkdir -p "$copy"
  tar --exclude='./build*' --exclude=./.git --exclude=./.deps --exclude=./.ab \
    --exclude=./docs/results -cf - . | tar -x -C "$copy"
  patch -s -d "$copy" -p1 \
    <"$root/docs/results/h200/2026-12-01_host_started_links/host_links_47226bb.patch" || return 1
  configure_cuda "$copy" "$copy/build" "$o/links/configure.log" -DHALOFLAG_BUILD_TESTS=OFF ||
    { tail -30 "$o/links/configure.log"; return 1; }
  cmake --build "$copy/build" -j "$1" --target halo_bench >"$o/links/build.log" 2>&1 ||
    { grep -B2 -A8 "error:" "$o/links/build.log" | head -40; return 1; }
}

for step in $STEPS; do
  case $step in
    builds)
      build_before_in_background 5 haloflag_jacobi3d halo_bench
      tree_of_patch polls
      configure_cuda .ab/polls "${builds[polls]}" "$o/configure_polls.log" \
        -DHALOFLAG_BUILD_TESTS=OFF || { tail -30 "$o/configure_polls.log"; exit 1; }
      cmake --build "${builds[polls]}" -j 3 --target halo_bench >"$o/build_polls.log" 2>&1 &
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON -DHALOFLAG_PYTHON=OFF
      build_or_errors 8 haloflag_jacobi3d halo_bench halo_exchange_strategies_mpi_test \
        halo_stream_exchange_mpi_test halo_resident_coexistence_mpi_test \
        halo_embedded_whole_exchange_mpi_test jacobi3d_reference_mpi_test
      wait_for_before
      echo "trees built: $(left) s left"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-$gpu_tests} TEST_SECONDS=$(($(left) - ${KEEP:-150})) stencil_gpu_tests
      ;;
    halo_three)
      mkdir -p "$o/halo_three"
      turn=(before polls after)
      for round in $(seq 1 "$rounds"); do
        for cube in ${CUBES:-200 800}; do
          for tree in "${turn[@]}"; do
            halo_resident halo_three "$tree" "$cube" "$round" || break 3
          done
          halo_resident halo_three before "$cube" "$round" --poll-backoff-ns 0 || break 2
        done
        turn=("${turn[2]}" "${turn[1]}" "${turn[0]}")
      done
      echo "halo_three: $(left) s left"
      ;;
    relay_build)
      tree_of_patch relay
      configure_cuda .ab/relay "${builds[relay]}" "$o/configure_relay.log" \
        -DHALOFLAG_BUILD_TESTS=OFF || { tail -30 "$o/configure_relay.log"; exit 1; }
      cmake --build "${builds[relay]}" -j "$(nproc)" --target halo_bench haloflag_jacobi3d \
        >"$o/build_relay.log" 2>&1 ||
        { grep -B2 -A8 "error:" "$o/build_relay.log" | head -40; exit 1; }
      echo "relay built: $(left) s left"
      ;;
    relay)
      mkdir -p "$o/relay"
      turn=(before relay after)
      for round in $(seq 1 "$rounds"); do
        for cube in ${CUBES:-200 800}; do
          for tree in "${turn[@]}"; do halo_resident relay "$tree" "$cube" "$round" || break 3; done
        done
        turn=("${turn[2]}" "${turn[1]}" "${turn[0]}")
      done
      builds[after]=${builds[relay]}  # jacobi3d_trees sets `after` against `before`
      jacobi3d_trees relay "${SIZES_3D:-32 128}"
      echo "relay: $(left) s left"
      ;;
    jacobi)
      jacobi3d_trees jacobi "${SIZES_3D:-32 64 128 256}"
      echo "jacobi: $(left) s left"
      ;;
  esac
done
