#!/usr/bin/env bash
# Device call 3: halo_bench on Jacobi3D's messages (32^3 per rank, 2 ranks, split along x, periodic), over MPI, traced.
set -uo pipefail
# shellcheck source=scripts/device/device_call_common.sh
source scripts/device/device_call_common.sh
export LD_LIBRARY_PATH=$PWD/build-devbin/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi -L; cat build-devbin/tree.txt
D=docs/results/h200x2/2026-11-27_mpi_final/jacobi_like
mkdir -p $OUT/jacobi_like
for st in 7 27; do
  echo "\$ mpiexec -n 2 build-devbin/bin/halo_bench --config $D/jacobi${st}_32cubed_np2.cfg --strategy comb_fused,stream_notify,resident --transport mpi --rounds 3 --iterations 1000 --progress 0 --timeout 10 --params model/params/nvidia-h200-x2__open-mpi-v4.1.6.json --json halo_bench_jacobi${st}.json --trace trace_jacobi${st}.json" >> $OUT/jacobi_like/commands.txt
  timeout 100 mpiexec -n 2 build-devbin/bin/halo_bench --config $D/jacobi${st}_32cubed_np2.cfg --strategy comb_fused,stream_notify,resident --transport mpi --rounds 3 --iterations 1000 --progress 0 --timeout 10 --params model/params/nvidia-h200-x2__open-mpi-v4.1.6.json --json $OUT/jacobi_like/halo_bench_jacobi${st}.json --trace $OUT/jacobi_like/trace_jacobi${st}.json > $OUT/jacobi_like/halo_bench_jacobi${st}.txt 2>&1
  echo "rc $?"; grep -E "^(comb|stream|resident)|messages" $OUT/jacobi_like/halo_bench_jacobi${st}.txt
done
cd $OUT && tar -czf jacobi_like.tar.gz jacobi_like && rm -rf jacobi_like
