#!/usr/bin/env bash
# Session 56's device calls on nvidia-h200-x2 (repository root on the GPU machine; .deps from
# scripts/stage_offline_deps.sh and .ab/before, `git archive c9d7aa6`, carried). STEP picks the
# call; the calls run back to back on one warm machine, so the builds of `build` carry over.
#   build   both trees (this one with tests and the Python package), then the GPU tests of the
#           resident kernels on 2 GPUs and on one GPU under MPS
#   cost    the relaunch's cost (halo_bench --idle-gap), the action table, the halo_bench A/B
#   ab      the Jacobi3D and Python-overhead A/B
#   recheck on a fresh machine, after the window came to count from the last exchange's end and
#           halo_bench to count relaunches after its warm-up: the coexistence tests on 2 GPUs and
#           under MPS, and halo_bench's relaunch counts
#   pytest  on a fresh machine, once test_coexistence.py counted a loop's relaunches after its
#           first exchange: the Python coexistence tests on 2 GPUs and on one (GPU_SETS="0"),
#           which the Python GPU jobs now run under MPS (scripts/gpu/run_with_mps.sh)
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
call_clock 580
work_folder w "$STEP.tar.gz"
after=$root/build-ab-after
before=$root/build-before  # ignored, so kept between calls; .ab is replaced by each carry
py=$(command -v python3)
site=/tmp/site; mkdir -p "$site"; export PYTHONPATH=$site
python3 -m zipfile -e "$(ls "$root"/.deps/wheels/nanobind-*.whl)" "$site"
nb=$(python3 -m nanobind --cmake_dir)
# configure_with_python SOURCE BUILD LOG [CMAKE_ARGS...]: the CUDA backend with the Python package.
configure_with_python() {
  configure_cuda "$1" "$2" "$3" -DHALOFLAG_PYTHON=ON -DPython_EXECUTABLE="$py" -Dnanobind_DIR="$nb" "${@:4}"
}
case $STEP in
  build)
    cards "$o/gpus.txt"
    cat "$o/gpus.txt"; "$py" -c "import torch, cupy; print('torch', torch.__version__, 'cupy', cupy.__version__)"
    configure_with_python . "$after" "$o/configure_after.log" -DHALOFLAG_BUILD_TESTS=ON
    configure_with_python .ab/before "$before" "$o/configure_before.log" -DHALOFLAG_BUILD_TESTS=OFF
    cmake --build "$before" -j 12 --target halo_bench haloflag_jacobi3d haloflag_python haloflag_run_loop \
      >"$o/build_before.log" 2>&1 &
    cmake --build "$after" -j 20 >"$o/build_after.log" 2>&1 || { tail -40 "$o/build_after.log"; exit 1; }
    wait || { tail -20 "$o/build_before.log"; }
    echo "built: $(left) s left"
    (cd "$after" && timeout $(( $(left) - 150 )) ctest -L gpu --timeout 150 --output-on-failure \
      -R "${TESTS:-resident|stream_exchange|python_gpu|strategies_cuda|node_transport_cuda|fault_injection_cuda}") \
      >"$o/ctest_gpu_x2.txt" 2>&1
    grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Total Test" "$o/ctest_gpu_x2.txt" | tail -40
    echo "x2 tested: $(left) s left"
    (cd "$after" && CUDA_VISIBLE_DEVICES=0 timeout $(( $(left) - 10 )) ctest --timeout 120 \
      --output-on-failure -R "resident_coexistence|python_gpu_coexistence") >"$o/ctest_gpu_mps.txt" 2>&1
    grep -E "tests passed|\*\*\*|Failed|Passed|Total Test|MPS" "$o/ctest_gpu_mps.txt" | tail -12
    grep -h -E "took|relaunch" "$o"/ctest_gpu_*.txt | head -60 >"$o/action_lines.txt"
    echo "done: $(left) s left"
    ;;
  cost)
    hb=$after/bench/halo_bench
    cfg=$root/comb_configs/comb_200_np2_reduced.cfg
    for round in 1 2; do
      for idle in default never; do
        mpiexec -n 2 "$hb" --config "$cfg" --strategy resident --transport node --tuning fixed \
          --rounds 1 --iterations 300 --warmup 20 --progress 0 --idle-gap 5000 --idle-exit $idle \
          --json "$o/cost_${idle}_r$round.json" >"$o/cost_${idle}_r$round.txt" 2>&1
        grep -E "^resident|launched again" "$o/cost_${idle}_r$round.txt"
      done
    done
    echo "cost: $(left) s left"
    PYTHON=$py timeout 150 scripts/bench/bench_coexistence.sh "$o/actions" "$after" --with-never >"$o/actions.log" 2>&1
    tail -30 "$o/actions.log"
    echo "actions: $(left) s left"
    HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$after HALOFLAG_BASELINE_BUILD=$before \
      HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_AB_STRATEGIES=resident HALOFLAG_AB_TRANSPORTS=node \
      HALOFLAG_AB_NCCL=0 HALOFLAG_ROUNDS=${ROUNDS:-3} HALOFLAG_GPU=cuda \
      timeout $(( $(left) - 10 )) scripts/ab/ab_halo_bench_trees.sh "$o/hab" --iterations 1000 \
      >"$o/hab_log.txt" 2>&1 || { echo "halo A/B failed or cut"; tail -20 "$o/hab_log.txt"; }
    cat "$o/hab/ab_halo_bench/summary.txt" 2>/dev/null
    echo "hab: $(left) s left"
    ;;
  recheck)
    cards "$o/gpus.txt"
    configure_with_python . "$after" "$o/configure_after.log" -DHALOFLAG_BUILD_TESTS=ON
    cmake --build "$after" -j 32 --target halo_bench haloflag_python halo_resident_coexistence_mpi_test \
      >"$o/build_after.log" 2>&1 || { tail -40 "$o/build_after.log"; exit 1; }
    echo "built: $(left) s left"
    (cd "$after" && ctest --timeout 120 --output-on-failure -R "resident_coexistence|python_gpu_coexistence") \
      >"$o/ctest_gpu_x2.txt" 2>&1
    grep -E "tests passed|\*\*\*|Failed|Passed|Total Test| passed| failed" "$o/ctest_gpu_x2.txt" | tail -8
    (cd "$after" && CUDA_VISIBLE_DEVICES=0 ctest --timeout 120 --output-on-failure \
      -R "resident_coexistence|python_gpu_coexistence") >"$o/ctest_gpu_mps.txt" 2>&1
    grep -E "tests passed|\*\*\*|Failed|Passed|Total Test| passed| failed|MPS" "$o/ctest_gpu_mps.txt" | tail -8
    echo "tested: $(left) s left"
    for cube in 200 800; do
      mpiexec -n 2 "$after/bench/halo_bench" --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" \
        --strategy resident --transport node --tuning fixed --rounds 2 --iterations 1000 --progress 0 \
        --json "$o/resident_$cube.json" >"$o/resident_$cube.txt" 2>&1
      grep -E "^resident|launched again" "$o/resident_$cube.txt"
    done
    echo "done: $(left) s left"
    ;;
  pytest)
    configure_with_python . "$after" "$o/configure_after.log" -DHALOFLAG_BUILD_TESTS=ON
    cmake --build "$after" -j 32 --target haloflag_python >"$o/build_after.log" 2>&1 ||
      { tail -40 "$o/build_after.log"; exit 1; }
    echo "built: $(left) s left"
    for gpus in ${GPU_SETS:-0,1 0}; do
      (cd "$after" && CUDA_VISIBLE_DEVICES=$gpus ctest -V --timeout 120 \
        -R python_gpu_coexistence) >"$o/ctest_python_gpus_$gpus.txt" 2>&1
      grep -E "tests passed|\*\*\*|Total Test| passed| failed|MPS" "$o/ctest_python_gpus_$gpus.txt" | tail -6
    done
    echo "done: $(left) s left"
    ;;
  ab)
    # The before tree's build again, where a call that carried .ab replaced it.
    [[ -x $before/bench/halo_bench ]] || {
      configure_with_python .ab/before "$before" "$o/configure_before.log" -DHALOFLAG_BUILD_TESTS=OFF
      cmake --build "$before" -j 32 --target halo_bench haloflag_jacobi3d haloflag_python haloflag_run_loop \
        >"$o/build_before.log" 2>&1 || tail -20 "$o/build_before.log"
      echo "before built: $(left) s left"
    }
    HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$after HALOFLAG_BASELINE_BUILD=$before \
      HALOFLAG_BASELINE_SRC=$root/.ab/before HALOFLAG_AB_STRATEGIES=resident HALOFLAG_AB_TRANSPORTS=node \
      HALOFLAG_AB_NCCL=0 HALOFLAG_ROUNDS=${ROUNDS:-2} HALOFLAG_GPU=cuda \
      timeout 150 scripts/ab/ab_halo_bench_trees.sh "$o/hab" --iterations 1000 \
      >"$o/hab_log.txt" 2>&1 || { echo "halo A/B failed or cut"; tail -20 "$o/hab_log.txt"; }
    cat "$o/hab/ab_halo_bench/summary.txt" 2>/dev/null
    echo "hab: $(left) s left"
    ln -sfn "$before" .ab/before/build-ab-before  # ab_jacobi_trees.sh's build of that tree
    HALOFLAG_AB_ROUNDS=${ROUNDS:-2} HALOFLAG_AB_LABELS="before=c9d7aa6" HALOFLAG_AB_REPEATS=6 \
      HALOFLAG_CMAKE_ARGS="-DHALOFLAG_PYTHON=ON -DPython_EXECUTABLE=$py -Dnanobind_DIR=$nb" \
      timeout $(( $(left) - 130 )) scripts/ab/ab_jacobi_trees.sh "$o/jab" before=.ab/before after=. \
      -- --variant stream,resident >"$o/jacobi_ab_log.txt" 2>&1 ||
      { echo "jacobi A/B failed or cut"; tail -20 "$o/jacobi_ab_log.txt"; }
    cat "$o/jab/summary.md" 2>/dev/null | head -30
    echo "jab: $(left) s left"
    for tree in before after; do
      b=$after; [[ $tree == before ]] && b=$before
      PYTHON=$py ROUNDS=3 ITERATIONS=2000 timeout 60 scripts/bench/bench_python_overhead.sh "$o/py_$tree" "$b" \
        >"$o/py_$tree.log" 2>&1 || echo "python overhead $tree failed or cut"
      tail -4 "$o/py_$tree/summary.txt" 2>/dev/null
    done
    echo "py: $(left) s left"
    ;;
esac
