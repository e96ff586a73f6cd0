#!/usr/bin/env bash
# Session 69's device call on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; the build
# folder is ignored, so a warm machine keeps it between calls.
#   build_after  this tree's BUILD_TARGETS (default: Jacobi3D and its reference test) into
#              build-gpu, every core
#   tests      the GPU tests of Jacobi3D against its reference (GPU_TESTS, a ctest regex, widens
#              or narrows them), within TEST_SECONDS (150)
#   forms      Jacobi3D at SIZES_3D cells per rank (32 64 128 256), 7 and 27 points: the resident
#              variant whose sends update the boundary cells they send (--sends-update) and the
#              one that updates the boundary first, behind a grid barrier (--no-sends-update),
#              each run beside both conventional loops, the two runs' order swapped every other
#              round, ROUNDS rounds (2); checked against the single-rank reference up to 64^3;
#              each run prints the update alone against the copy rate; forms/summary.txt
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi3d jacobi3d_reference_mpi_test}"

# rows_of FILE: a Jacobi3D run's medians per iteration, then each update alone against the copy
# rate.
rows_of() {
  awk '/^variant +median/ {t = 1; next} /^variant +update/ {u = 1; next}
      t && NF == 0 {t = 0} u && NF == 0 {u = 0}
      t {printf "%s %s  ", $1, $2} u {printf "%s upd %s %s  ", $1, $2, $NF}' "$1"
}

# forms_run NAME OPTIONS...: one Jacobi3D run over node into $o/forms/NAME.{json,txt}, both
# conventional loops and the resident variant; its rows and the resident grid on stdout and in
# the summary.
forms_run() {
  local name=$1
  shift
  (($(left) > 25)) || return 1
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" "$(jacobi3d after)" --transport node \
    --repeats 10 --variant conventional,conventional_overlap,resident "$@" \
    --json "$o/forms/$name.json" >"$o/forms/$name.txt" 2>&1
  echo "$name: $(rows_of "$o/forms/$name.txt")" \
    "[$(grep -oE 'cooperative grid: [0-9]+ blocks x [0-9]+' "$o/forms/$name.txt" | head -1)]" \
    "$(grep -oE 'all [0-9]+ cells identical|differ[^.]*' "$o/forms/$name.txt" | head -1)" |
    tee -a "$o/forms/summary.txt"
}

for step in $STEPS; do
  case $step in
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    tests)
      GPU_TESTS=${GPU_TESTS:-jacobi3d_reference} stencil_gpu_tests
      ;;
    forms)
      mkdir -p "$o/forms"
      for round in $(seq 1 "${ROUNDS:-2}"); do
        forms=(--sends-update --no-sends-update)
        ((round % 2 == 0)) && forms=(--no-sends-update --sends-update)
        for local in ${SIZES_3D:-32 64 128 256}; do
          iterations=$((local >= 256 ? 50 : 200))
          check=()
          ((local <= 64)) && check=(--check)
          for points in 7 27; do
            for form in "${forms[@]}"; do
              forms_run "j3d${local}_${points}pt_${form#--}_r$round" --local "$local" \
                --stencil "$points" --iterations "$iterations" "${check[@]}" "$form" || break 4
            done
          done
        done
      done
      echo "forms: $(left) s left"
      ;;
  esac
done
