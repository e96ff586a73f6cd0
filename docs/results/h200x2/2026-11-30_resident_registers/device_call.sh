#!/usr/bin/env bash
# Session 67's device calls on two H200s, one rank per GPU (repository root on the GPU machine,
# .deps from scripts/stage_offline_deps.sh carried). STEPS lists the steps of the call; the build
# folder is ignored, so a warm machine keeps it between calls.
#   build_after  this tree's BUILD_TARGETS (default: both examples) into build-gpu, every core
#   budgets    Jacobi3D's resident variant at 32^3 to 256^3 cells per rank (SIZES_3D), 7 and 27
#              points, once per register budget of its kernel (BUDGETS: 64 is the tree's kernel,
#              48, 40 and 32 budget_kernels.patch's, chosen by JACOBI3D_RESIDENT_REGISTERS),
#              beside both conventional loops, ROUNDS rounds (1); each run prints the update
#              alone against the copy rate
#   profile    Nsight Compute on one rank's update at 256^3 per rank (one rank, its halo its own),
#              7 and 27 points: the resident kernel's update alone (its first launch with
#              ResidentLaunch::updates_only) and the conventional loop's box_kernel, each with
#              the sections in ncu_sections and its local-memory (spill) sectors
#   profile_split  the same for the update split into the boundary layer and the interior
#              (conventional_overlap's boundary_kernel and box_kernel, the third and fourth launch)
#   links      the table of links of Jacobi3D's resident iteration at LINK_LOCAL^3 cells per rank
#              (256), LINK_ROUNDS rounds (1): scripts/bench/jacobi_resident_breakdown.sh with the
#              2026-11-30_next_exchange stamps on a copy of this tree, built there
#   tests      the GPU tests of both examples against their references and of the whole
#              exchange from the kernel (GPU_TESTS, a ctest regex, narrows them), within
#              TEST_SECONDS (150)
#   sizes      both examples' variants at every size (scripts/bench/bench_stencils.sh, without
#              NVIDIA's program; SIZES_2D narrows jacobi2d's), the tables in stencils/summary.md
# RANKS: ranks (default 2); on a machine of fewer GPUs they share them under MPS, a proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
this_tree_call
read -r -a build_targets <<<"${BUILD_TARGETS:-haloflag_jacobi2d haloflag_jacobi3d}"
read -r -a budgets <<<"${BUDGETS:-64 48 40 32}"

# budget_run NAME OPTIONS...: one Jacobi3D run into $o/budgets/NAME.{json,txt}; its rows (median
# per iteration, then the update alone's fraction of the copy rate) and the grid on stdout.
budget_run() {
  local name=$1
  shift
  (($(left) > 25)) || return 1
  timeout 60 "${shared[@]}" mpiexec -n "$ranks" -x JACOBI3D_RESIDENT_REGISTERS \
    "$(jacobi3d after)" --transport node --repeats 10 "$@" --json "$o/budgets/$name.json" \
    >"$o/budgets/$name.txt" 2>&1
  echo "$name: $(awk '/^variant +median/ {t = 1; next} /^variant +update/ {u = 1; next}
      t && NF == 0 {t = 0} u && NF == 0 {u = 0}
      t {printf "%s %s  ", $1, $2} u {printf "%s upd %s %s  ", $1, $2, $NF}' \
      "$o/budgets/$name.txt")" \
    "[$(grep -oE 'cooperative grid: [0-9]+ blocks x [0-9]+' "$o/budgets/$name.txt" | head -1)]"
}

spill_metrics=l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
spill_metrics+=,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
ncu_sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
  --section LaunchStats --section WarpStateStats --section SchedulerStats
  --metrics "$spill_metrics")

# profile_update NAME KERNEL SKIP OPTIONS...: ncu on the launch after SKIP launches of KERNEL
# (a regex) in one rank's Jacobi3D run of OPTIONS, its report into $o/profile/NAME.{txt,ncu-rep}
# and printed in full into NAME.details.txt (COUNT launches, 1).
profile_update() {
  local name=$1 kernel=$2 skip=$3
  shift 3
  (($(left) > 40)) || return 1
  timeout 120 mpiexec -n 1 ncu --kernel-name "regex:$kernel" --launch-skip "$skip" \
    --launch-count "${COUNT:-1}" "${ncu_sections[@]}" --export "$o/profile/$name" \
    "$(jacobi3d after)" --transport node --local 256 --iterations 20 --warmup 0 "$@" \
    >"$o/profile/$name.txt" 2>&1
  ncu --import "$o/profile/$name.ncu-rep" --page details --print-units base \
    >"$o/profile/$name.details.txt" 2>&1
  echo "$name: $(grep -E "_kernel<|Duration|DRAM Throughput|Registers Per|Achieved Occ" \
    "$o/profile/$name.details.txt" |
    sed -E 's/.*::([a-z_]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/\1 \2/' | tr -s ' ' |
    tr '\n' ';')"
}

for step in $STEPS; do
  case $step in
    build_after)
      build_this_tree "${build_targets[@]}"
      ;;
    budgets)
      mkdir -p "$o/budgets"
      export JACOBI3D_RESIDENT_REGISTERS=64
      for round in $(seq 1 "${ROUNDS:-1}"); do
        for local in ${SIZES_3D:-256 128 64 32}; do
          iterations=$((local >= 256 ? 50 : 200))
          for points in 7 27; do
            budget_run "j3d${local}_${points}pt_conventional_r$round" --local "$local" \
              --stencil "$points" --iterations "$iterations" \
              --variant conventional,conventional_overlap || break 3
            for budget in "${budgets[@]}"; do
              JACOBI3D_RESIDENT_REGISTERS=$budget budget_run \
                "j3d${local}_${points}pt_r${budget}_r$round" --local "$local" \
                --stencil "$points" --iterations "$iterations" --variant resident || break 4
            done
          done
        done
      done
      echo "budgets: $(left) s left"
      ;;
    profile)
      mkdir -p "$o/profile"
      for points in 7 27; do
        profile_update "resident_${points}pt" resident_kernel 2 --stencil "$points" \
          --variant resident --repeats 2 || break
        profile_update "box_${points}pt" box_kernel 5 --stencil "$points" \
          --variant conventional --repeats 1 --no-update-rate || break
      done
      echo "profile: $(left) s left"
      ;;
    profile_split)
      mkdir -p "$o/profile"
      for points in 7 27; do
        COUNT=2 profile_update "split_${points}pt" "boundary_kernel|box_kernel" 2 \
          --stencil "$points" --variant conventional_overlap --repeats 1 || break
      done
      echo "profile_split: $(left) s left"
      ;;
    links)
      HALOFLAG_BREAKDOWN_SETTINGS=0 HALOFLAG_BREAKDOWN_ROUNDS=${LINK_ROUNDS:-1} \
        HALOFLAG_BREAKDOWN_LOCAL=${LINK_LOCAL:-256} timeout $(($(left) - 10)) \
        scripts/bench/jacobi_resident_breakdown.sh "$o/links" "$root"
      rm -rf "$o/links/tree"
      echo "links: $(left) s left"
      ;;
    tests)
      stencil_gpu_tests
      ;;
    sizes)
      stencil_sizes
      ;;
  esac
done
