#!/usr/bin/env bash
# Session 57's device calls (repository root on the GPU machine; .deps from
# scripts/stage_offline_deps.sh carried, the peer's source among it). STEPS lists the steps of
# the call; build-gpu/ and build-peer/ are ignored, so a warm machine keeps them between calls.
#   build    both examples (tests included) and the peer; the GPU tests of both examples
#   bench2d  scripts/bench/bench_stencils.sh, jacobi2d and its peer only
#   bench3d  scripts/bench/bench_stencils.sh, Jacobi3D only
#   verify   after the resident piece grid's cap and Jacobi3D's last changes: the GPU tests of
#            Jacobi3D and of the stream and resident exchanges, Jacobi3D at 32^3 to 256^3 per rank,
#            halo_bench resident over node at cubes 800 and 200
#   onegpu   one H200: jacobi2d's GPU tests, and one rank on each rank's plane of call 2 (4096 x
#            2047 and 16384 x 8191 updated rows), for the update alone against the copy rate
#   final3d  Jacobi3D alone, built and run at SIZES_3D (default 32 128) per rank
#   tune     the resident grid's block size: both examples' resident variant at 256, 512 and
#            1024 threads per block, a small and a large size each
# RANKS: ranks, one per GPU (default 2); on a machine of fewer GPUs they share them under MPS, a
# proxy.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
single_copy_none
call_clock 580
ranks=${RANKS:-2}
work_folder w "np${ranks}_${STEPS// /_}.tar.gz"
build=$root/build-gpu
peer=$root/build-peer
one_gpu_per_rank=(bash -c 'export CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0}; exec "$@"' one_gpu)
for step in $STEPS; do
  case $step in
    build)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      cmake --build "$build" -j 24 --target haloflag_jacobi2d jacobi2d_reference_mpi_test \
        haloflag_jacobi3d jacobi3d_reference_mpi_test >"$o/build.log" 2>&1 &
      scripts/bench/build_jacobi_peer.sh "$root/.deps/peer/multi-gpu-programming-models" "$peer" \
        >"$o/peer_build.log" 2>&1
      cat "$o/peer_build.log"
      wait || { grep -B2 -A8 "error:" "$o/build.log" | head -60; exit 1; }
      echo "built: $(left) s left"
      in_build "$build" "$o/ctest_gpu.txt" timeout 240 ctest -L gpu --timeout 200 --output-on-failure \
        -R "jacobi2d_reference_cuda|jacobi3d_reference_cuda"
      grep -E "tests passed|\*\*\*|Failed|Passed|Total Test" "$o/ctest_gpu.txt" | tail -12
      echo "tested: $(left) s left"
      ;;
    bench2d | bench3d)
      stencils_of "${step#bench}"
      ;;
    verify)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 30 haloflag_jacobi3d jacobi3d_reference_mpi_test halo_bench \
        halo_stream_exchange_mpi_test halo_resident_coexistence_mpi_test
      echo "built: $(left) s left"
      in_build "$build" "$o/ctest_gpu_verify.txt" timeout 150 ctest --timeout 120 --output-on-failure \
        -R "jacobi3d_reference_cuda|stream_exchange_cuda|stream_exchange_abort_cuda|resident_coexistence_cuda"
      grep -E "tests passed|\*\*\*|Failed|Passed|Not Run|Total Test" "$o/ctest_gpu_verify.txt" | tail -12
      echo "tested: $(left) s left"
      SIZES_2D=" " SIZES_3D="${SIZES_3D:-32 64 128 256}" HALOFLAG_BUILD_DIR=$build RANKS=$ranks \
        RUN_LIMIT=90 timeout $(( $(left) - 40 )) scripts/bench/bench_stencils.sh "$o/stencils3d"
      echo "bench3d: $(left) s left"
      mps_when_shared "$ranks"
      for cube in 800 200; do
        (( $(left) > 25 )) || break
        timeout $(( $(left) - 5 )) "${shared[@]}" mpiexec -n "$ranks" "$build/bench/halo_bench" \
          --config "$root/comb_configs/comb_${cube}_np2_reduced.cfg" --strategy resident \
          --transport node --tuning fixed --rounds 1 --iterations 1000 --progress 0 \
          --json "$o/resident_$cube.json" >"$o/resident_$cube.txt" 2>&1
        grep -E "^resident" "$o/resident_$cube.txt"
      done
      echo "verify: $(left) s left"
      ;;
    onegpu)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=ON
      build_or_errors 16 haloflag_jacobi2d jacobi2d_reference_mpi_test
      echo "built: $(left) s left"
      in_build "$build" "$o/ctest_gpu_onegpu.txt" timeout 100 ctest --timeout 90 --output-on-failure \
        -R "jacobi2d_reference_cuda"
      grep -E "tests passed|\*\*\*|Failed|Passed|Total Test" "$o/ctest_gpu_onegpu.txt" | tail -6
      mkdir -p "$o/onegpu"
      for shape in "4096 2049 100" "4096 2049 1" "16384 8193 100"; do
        read -r nx ny c <<<"$shape"
        timeout 90 mpiexec -n 1 "$build/examples/jacobi2d/haloflag_jacobi2d" -nx "$nx" -ny "$ny" \
          -niter 1000 -nccheck "$c" --repeats 3 --json "$o/onegpu/jacobi2d_${nx}x${ny}_$c.json" \
          >"$o/onegpu/jacobi2d_${nx}x${ny}_$c.txt" 2>&1
        grep -E "^(copy|conventional_overlap|stream|resident) " "$o/onegpu/jacobi2d_${nx}x${ny}_$c.txt"
      done
      echo "onegpu: $(left) s left"
      ;;
    final3d)
      configure_or_stop -DHALOFLAG_BUILD_TESTS=OFF
      build_or_errors 32 haloflag_jacobi3d
      echo "built: $(left) s left"
      SIZES_2D=" " SIZES_3D="${SIZES_3D:-32 128}" HALOFLAG_BUILD_DIR=$build RANKS=$ranks \
        RUN_LIMIT=60 timeout $(( $(left) - 5 )) scripts/bench/bench_stencils.sh "$o/stencils3d"
      echo "final3d: $(left) s left"
      ;;
    tune)
      mkdir -p "$o/tune"
      for threads in 256 512 1024; do
        for n in 1024 16384; do
          mpiexec -n "$ranks" "${one_gpu_per_rank[@]}" "$build/examples/jacobi2d/haloflag_jacobi2d" \
            -nx $n -ny $n -nccheck 1 --variant resident --gpu-threads $threads --repeats 3 \
            >"$o/tune/jacobi2d_${n}_t$threads.txt" 2>&1
          echo "jacobi2d $n threads $threads: $(grep -E '^resident ' "$o/tune/jacobi2d_${n}_t$threads.txt")"
        done
        for local in 32 128; do
          mpiexec -n "$ranks" "${one_gpu_per_rank[@]}" "$build/examples/jacobi3d/haloflag_jacobi3d" \
            --local $local --stencil 27 --variant resident --gpu-threads $threads --repeats 5 \
            >"$o/tune/jacobi3d_${local}_t$threads.txt" 2>&1
          echo "jacobi3d $local threads $threads: $(grep -E '^resident ' "$o/tune/jacobi3d_${local}_t$threads.txt" | head -1)"
        done
      done
      echo "tune: $(left) s left"
      ;;
  esac
done
