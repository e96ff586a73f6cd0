#!/usr/bin/env bash
# Session 69's device call on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; the build
# folder is ignored, so a warm machine keeps it between calls.
#   build_after  this tree's BUILD_TARGETS (default: Jacobi3D and its reference test) into
#              build-gpu, every core
#   tests      the GPU tests of Jacobi3D against its reference (GPU_TESTS, a ctest regex, widens
#              or narrows them), within TEST_SECONDS (150)
#   forms      Jacobi3D at SIZES_3D cells per rank (32 64 128 256), 7 and 27 points: the resident
#              variant whose sends update the boundary cells they send (--sends-update on) and
#              the one that updates the boundary first, behind a grid barrier (off; the call of
#              the record ran them as --sends-update and --no-sends-update, c636c26's flags),
#              each run beside both conventional loops, the two runs' order swapped every other
#              round, ROUNDS rounds (2); checked against the single-rank reference up to 64^3;
#              each run prints the update alone against the copy rate; forms/summary.txt
#   pieces     Jacobi3D at PIECE_SIZES cells per rank (32 64 128), 7 and 27 points, the resident
#              variant with the sends updating (--sends-update on) and node pieces of each of
#              PIECES (2048 4096 bytes), beside both conventional loops, the sizes' order
#              swapped every other round, ROUNDS rounds (2); pieces/summary.txt
#   rule       Jacobi3D at RULE_SIZES cells per rank (128 256), 7 and 27 points, the resident
#              variant with --sends-update auto (the rule), beside both conventional loops,
#              checked against the single-rank reference up to 64^3; rule/summary.txt, whose
#              launch descriptions say which order and pieces the rules took
#   links_build  a copy of this tree with stamps.patch (here) built in the background into
#              links/ (scripts/bench/jacobi_resident_breakdown.sh); links waits for it
#   links      the table of links of the resident iteration at 32^3 per rank, setting 0, the
#              sends updating (sends) and the boundary first (first) one after the other in
#              each of LINK_ROUNDS rounds (2); links/links.md
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi3d jacobi3d_reference_mpi_test}"
# Every run of the steps below: both conventional loops beside the resident variant.
VARIANTS=conventional,conventional_overlap,resident

breakdown=scripts/bench/jacobi_resident_breakdown.sh
stamps=$root/docs/results/h200x2/2026-11-30_sends_update/stamps.patch

for step in $STEPS; do
  case $step in
    links_build)
      mkdir -p "$o/links"
      HALOFLAG_BREAKDOWN_BUILD_ONLY=1 "$breakdown" "$o/links" "$root" "$stamps" &
      links_build=$!
      ;;
    links)
      wait "$links_build" || { grep -m5 -A5 "error" "$o/links/build.log"; exit 1; }
      HALOFLAG_BREAKDOWN_PREBUILT=1 HALOFLAG_BREAKDOWN_SETTINGS=0 \
        HALOFLAG_BREAKDOWN_ROUNDS=${LINK_ROUNDS:-2} HALOFLAG_BREAKDOWN_LABEL=tree \
        HALOFLAG_BREAKDOWN_ROUTES="sends=--sends-update on;first=--sends-update off" \
        timeout $(($(left) - 10)) "$breakdown" "$o/links" "$root" "$stamps"
      rm -rf "$o/links/tree"
      cat "$o/links/links.md"
      echo "links: $(left) s left"
      ;;
    pieces)
      mkdir -p "$o/pieces"
      read -r -a sizes <<<"${PIECES:-2048 4096}"
      for round in $(seq 1 "${ROUNDS:-2}"); do
        for local in ${PIECE_SIZES:-32 64 128}; do
          for points in 7 27; do
            for bytes in "${sizes[@]}"; do
              jacobi3d_run pieces \
                "j3d${local}_${points}pt_p${bytes}_r$round" \
                --local "$local" --stencil "$points" --iterations 200 --sends-update on \
                --node-piece-bytes "$bytes" --no-update-rate || break 4
            done
          done
        done
        sizes=("${sizes[@]:1}" "${sizes[0]}")
      done
      echo "pieces: $(left) s left"
      ;;
    rule)
      mkdir -p "$o/rule"
      for local in ${RULE_SIZES:-128 256}; do
        check=()
        ((local <= 64)) && check=(--check)
        for points in 7 27; do
          jacobi3d_run rule "j3d${local}_${points}pt_auto" --local "$local" \
            --stencil "$points" --iterations $((local >= 256 ? 50 : 200)) --sends-update auto \
            "${check[@]}" || break 2
          grep -oE "node pieces of [0-9]+ B[^;]*" "$o/rule/j3d${local}_${points}pt_auto.txt" |
            head -1
        done
      done
      echo "rule: $(left) s left"
      ;;
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-jacobi3d_reference} stencil_gpu_tests
      ;;
    forms)
      SIZES_3D=${SIZES_3D:-32 64 128 256} CHECK_UP_TO=64 \
        jacobi3d_two_forms forms --sends-update=on --sends-update=off
      echo "forms: $(left) s left"
      ;;
  esac
done
