#!/usr/bin/env bash
# Builds the variants of NVIDIA's multi-gpu-programming-models that examples/jacobi2d is set
# beside (staged by scripts/stage_offline_deps.sh), with the flags of their Makefiles, for sm_90,
# in C++17 where they say C++14 (CUDA 13's CUB refuses anything older):
#   scripts/bench/build_jacobi_peer.sh PEER_SOURCE BUILD_DIR [VARIANT ...]
# Default variants: nccl nccl_overlap nccl_graphs (MPI + NCCL) and multi_threaded_p2p_opt,
# multi_threaded_copy_overlap (one process, OpenMP). NCCL comes from NCCL_HOME, else from the
# Python wheel nvidia-nccl (its lib holds only libnccl.so.2, so that name is linked). Each
# variant lands in BUILD_DIR/<variant>/jacobi; one that fails to build is reported and skipped.
set -uo pipefail
(( $# >= 2 )) || { echo "usage: $0 PEER_SOURCE BUILD_DIR [VARIANT ...]" >&2; exit 2; }
source_dir=$1
build_dir=$2
shift 2
variants=("$@")
(( ${#variants[@]} )) || variants=(nccl nccl_overlap nccl_graphs multi_threaded_p2p_opt multi_threaded_copy_overlap)
[[ -f $source_dir/single_gpu/jacobi.cu ]] || { echo "$0: no peer source in $source_dir" >&2; exit 1; }
cuda_home=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
if [[ -z ${NCCL_HOME:-} ]]; then
  NCCL_HOME=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])' 2>/dev/null)
fi
gencode=(-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
status=0
for variant in "${variants[@]}"; do
  out=$build_dir/$variant
  mkdir -p "$out"
  src=$source_dir/$variant
  if [[ -f $src/jacobi_kernels.cu ]]; then
    # MPI + NCCL: the kernels by nvcc, the host code by mpicxx (their Makefile's flags).
    [[ -d ${NCCL_HOME:-} ]] || { echo "$variant: no NCCL (set NCCL_HOME)"; status=1; continue; }
    nvcc -DHAVE_CUB -lineinfo "${gencode[@]}" -std=c++17 -c "$src/jacobi_kernels.cu" \
         -o "$out/jacobi_kernels.o" >"$out/build.log" 2>&1 &&
    mpicxx -DUSE_NVTX -I"$cuda_home/include" -I"$NCCL_HOME/include" -std=c++17 "$src/jacobi.cpp" \
           "$out/jacobi_kernels.o" -L"$cuda_home/lib64" -L"$NCCL_HOME/lib" -lcudart -ldl \
           -l:libnccl.so.2 -Wl,-rpath,"$NCCL_HOME/lib" -o "$out/jacobi" >>"$out/build.log" 2>&1
  else
    nvcc -DHAVE_CUB -Xcompiler -fopenmp -lineinfo -DUSE_NVTX -ldl "${gencode[@]}" -std=c++17 \
         "$src/jacobi.cu" -o "$out/jacobi" >"$out/build.log" 2>&1
  fi
  if [[ -x $out/jacobi ]]; then
    echo "built $variant"
  else
    echo "$variant did not build:"; tail -5 "$out/build.log"; status=1
  fi
done
exit $status
