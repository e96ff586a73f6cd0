#!/usr/bin/env bash
# Device call 2: build the tree with the CUDA backend and its tests, issue 35's runs, then ctest -L gpu.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
nvidia-smi -L; git log --oneline -1 2>/dev/null; cat build-devbin/tree.txt
s=$SECONDS
configure_cuda . build-gpu "$OUT/build.log" -DHALOFLAG_BUILD_TESTS=ON && cmake --build build-gpu -j 32 >> $OUT/build.log 2>&1
rc=$?; echo "build rc $rc after $((SECONDS-s)) s"; [[ $rc != 0 ]] && { tail -40 $OUT/build.log; exit 1; }
export HALOFLAG_PREBUILT=1 HALOFLAG_BUILD_DIR=$root/build-gpu
timeout 120 scripts/bench/bench_jacobi_mpi.sh $OUT/r > $OUT/jacobi_log.txt 2>&1; echo "jacobi rc $? at $((SECONDS-s)) s"
OMPI_MCA_btl_vader_single_copy_mechanism=cma HALOFLAG_PLACEMENTS=bound timeout 40 scripts/bench/bench_jacobi_mpi.sh $OUT/cma > $OUT/jacobi_cma_log.txt 2>&1; echo "jacobi cma rc $? at $((SECONDS-s)) s"
HALOFLAG_ROUNDS=3 HALOFLAG_CUBES="200 400 800" HALOFLAG_PIECE_BYTES="0 32768" timeout 150 scripts/bench/bench_mpi_pieces.sh $OUT/r \
  --iterations 300 --timeout 10 --params $root/model/params/nvidia-h200-x2__open-mpi-v4.1.6.json > $OUT/pieces_log.txt 2>&1; echo "pieces rc $? at $((SECONDS-s)) s"
(cd build-gpu && timeout 270 ctest -L gpu --output-on-failure -j 2 --timeout 200 > $OUT/ctest_gpu.txt 2>&1); echo "ctest rc $? at $((SECONDS-s)) s"
tail -4 $OUT/ctest_gpu.txt; grep -E "Failed|\*\*\*|Not Run" $OUT/ctest_gpu.txt | head
for f in $OUT/r/jacobi_mpi/*.txt $OUT/cma/jacobi_mpi/*.txt; do echo "== $f"; grep -E "^(conventional|resident|stream) |conventional /|rror" $f | cut -c1-60; done
tail -3 $OUT/jacobi_cma_log.txt
for f in $OUT/r/pieces/*.txt; do echo "== $f"; grep -E "^(comb|stream|resident)" $f | head -12; grep -i "peers of rank 0" $f | head -3; done
cd $OUT && tar -czf results.tar.gz r cma *.txt build.log && rm -rf r cma
