#!/usr/bin/env bash
# Session 66's device calls on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh and .ab carried; .ab/before is 21a93c7). STEPS lists the
# steps of the call; the build folders are ignored, so a warm machine keeps them between calls.
#   build_after  this tree's BUILD_TARGETS (default: both examples) into build-gpu, every core
#   grid       the resident variants of both examples with the cooperative grid's blocks set
#              (--resident-blocks; 0 is the default) at every size: jacobi2d at 1024^2, 4096^2
#              and 16384^2, Jacobi3D at 32^3 to 256^3 cells per rank
#   stream_grid  Jacobi3D's stream variant beside conventional_overlap at 256^3 per rank with its
#              default piece grid and with 264 blocks (the default before), and at 128^3, two
#              rounds
#   tests      the GPU tests of both examples against their references and of the whole
#              exchange from the kernel (GPU_TESTS, a ctest regex, narrows them), within
#              TEST_SECONDS (150)
#   sizes      both examples' variants at every size (scripts/bench/bench_stencils.sh, without
#              NVIDIA's program), the tables in stencils/summary.md
#   links_build  the two copies of the links step, built in the background (a step after it
#              runs beside them)
#   links      the table of links of Jacobi3D's resident iteration at 32^3 per rank
#              (scripts/bench/jacobi_resident_breakdown.sh): the tree before (.ab/before,
#              21a93c7, with stamps_before.patch here: the 2026-11-29_two_gpus stamps carried to
#              that tree) and this one (the 2026-11-30_next_exchange stamps), each built in a copy
#              (by links_build, or here), then run one after the other
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi2d haloflag_jacobi3d}"

# grid_run NAME BLOCKS PROGRAM OPTIONS...: one resident run of PROGRAM with a grid of BLOCKS,
# into $o/grid/NAME_bBLOCKS.{json,txt}; its resident row and its grid's size on stdout.
grid_run() {
  local name=$1_b$2 blocks=$2 program=$3
  shift 3
  (($(left) > 25)) || return 1
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$program" --variant resident \
    --resident-blocks "$blocks" "$@" --json "$o/grid/$name.json" >"$o/grid/$name.txt" 2>&1
  echo "$name: $(grep -E '^ *resident ' "$o/grid/$name.txt" | head -1 | tr -s ' ')" \
    "[$(grep -oE 'cooperative grid: [0-9]+ blocks x [0-9]+' "$o/grid/$name.txt" | head -1)]"
}

# build_link_copies: the two patched copies of the links step built in the background (the tree
# before with stamps_before.patch, this one with the 2026-11-30_next_exchange stamps).
links_building=0
breakdown=scripts/bench/jacobi_resident_breakdown.sh
old_patch=$root/docs/results/h200x2/2026-11-30_resident_grid/stamps_before.patch
build_link_copies() {
  export HALOFLAG_BREAKDOWN_SETTINGS=0 HALOFLAG_BREAKDOWN_ROUNDS=${LINK_ROUNDS:-2}
  HALOFLAG_BREAKDOWN_BUILD_ONLY=1 HALOFLAG_BREAKDOWN_LABEL=before \
    "$breakdown" "$o/links_before" .ab/before "$old_patch" &
  HALOFLAG_BREAKDOWN_BUILD_ONLY=1 "$breakdown" "$o/links_after" "$root" &
  links_building=1
}

for step in $STEPS; do
  case $step in
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    grid)
      mkdir -p "$o/grid"
      j2=$(jacobi2d after)
      j3=$(jacobi3d after)
      for n in 1024 4096 16384; do
        blocks_list="0 132 264"
        ((n == 16384)) && blocks_list="0 264"
        for blocks in $blocks_list; do
          grid_run "j2d${n}_nccheck1" "$blocks" "$j2" -nx "$n" -ny "$n" -niter 1000 \
            -nccheck 1 --repeats 5 || break 3
        done
      done
      for blocks in 0 132 264; do
        grid_run j2d4096_nccheck100 "$blocks" "$j2" -nx 4096 -ny 4096 -niter 1000 \
          -nccheck 100 --repeats 5 || break
      done
      for local in 32 64 128 256; do
        blocks_list="0 132 264"
        ((local == 128)) && blocks_list="0 132 264 396"
        ((local == 256)) && blocks_list="0 264 528"
        iterations=$((local >= 256 ? 50 : 200))
        for points in 7 27; do
          ((points == 27 && (local == 64 || local == 256))) && continue
          for blocks in $blocks_list; do
            grid_run "j3d${local}_${points}pt" "$blocks" "$j3" --local "$local" \
              --stencil "$points" --transport node --iterations "$iterations" --repeats 10 ||
              break 4
          done
        done
      done
      grid_run j3d128_7pt_t512 264 "$j3" --local 128 --stencil 7 --transport node \
        --iterations 200 --repeats 10 --gpu-threads 512
      echo "grid: $(left) s left"
      ;;
    stream_grid)
      # Jacobi3D's stream variant beside conventional_overlap at 256^3 (the default grid, then
      # --node-blocks 264, the default before) and 128^3 (the default), two rounds
      mkdir -p "$o/stream_grid"
      for round in 1 2; do
        for run in "256 0" "256 264" "128 0"; do
          read -r local blocks <<<"$run"
          for points in 7 27; do
            (($(left) > 25)) || break 3
            name=j3d${local}_${points}pt_nb${blocks}_r$round
            timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$(jacobi3d after)" --local "$local" \
              --stencil "$points" --variant conventional_overlap,stream --transport node \
              --iterations $((local >= 256 ? 50 : 200)) --repeats 10 --node-blocks "$blocks" \
              --no-update-rate --json "$o/stream_grid/$name.json" >"$o/stream_grid/$name.txt" 2>&1
            echo "$name: $(grep -E '^(conventional_overlap|stream) ' "$o/stream_grid/$name.txt" |
              awk '{printf "%s %s  ", $1, $2}')" \
              "[$(grep -oE 'piece grid [0-9]+ blocks' "$o/stream_grid/$name.txt")]"
          done
        done
      done
      echo "stream_grid: $(left) s left"
      ;;
    tests)
      stencil_gpu_tests
      ;;
    sizes)
      stencil_sizes
      ;;
    links_build)
      build_link_copies
      ;;
    links)
      ((links_building)) || build_link_copies
      wait
      echo "links built: $(left) s left"
      HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_LABEL=before timeout $(($(left) / 2)) \
        "$breakdown" "$o/links_before" .ab/before "$old_patch"
      HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_LABEL=after timeout $(($(left) - 10)) \
        "$breakdown" "$o/links_after" "$root"
      scripts/tables/resident_links_table.py "$o/links_before/runs.txt" \
        "$o/links_after/runs.txt" | tee "$o/links.md"
      rm -rf "$o/links_before/tree" "$o/links_after/tree"
      echo "links: $(left) s left"
      ;;
  esac
done
