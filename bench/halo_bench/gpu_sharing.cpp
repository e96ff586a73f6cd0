#include "gpu_sharing.hpp"

#include <mpi.h>

#include <cstdlib>
#include <filesystem>

namespace haloflag::bench {

namespace {

// A CUDA client finds the MPS daemon through the control pipe in CUDA_MPS_PIPE_DIRECTORY
// (/tmp/nvidia-mps by default); the same check tells whether there is one to find.
bool mps_control_pipe_exists() {
  const char* directory = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::filesystem::path pipe =
      std::filesystem::path(directory != nullptr && *directory != '\0' ? directory
                                                                         : "/tmp/nvidia-mps") /
      "control";
  std::error_code error;
  return std::filesystem::exists(pipe, error);
}

}  // namespace

std::string GpuSharing::describe() const {
  if (!gpu) return "no GPU (host backend)";
  if (!shared()) return "one rank per GPU";
  std::string text = std::to_string(ranks_per_gpu) + " ranks per GPU, ";
  text += mps ? "under MPS" : "without MPS";
  if (!mps_note.empty()) text += " (MPS " + mps_note + ")";
  return text;
}

GpuSharing detect_gpu_sharing(MPI_Comm comm, const halo::GpuBinding* binding) {
  GpuSharing sharing;
  sharing.gpu = binding != nullptr;
  int mine = binding != nullptr ? binding->sharers : 1;
  MPI_Allreduce(&mine, &sharing.ranks_per_gpu, 1, MPI_INT, MPI_MAX, comm);
  int mps = binding != nullptr && mps_control_pipe_exists() ? 1 : 0;
  int all_mps = 0;
  MPI_Allreduce(&mps, &all_mps, 1, MPI_INT, MPI_MIN, comm);
  sharing.mps = all_mps != 0;
  if (const char* note = std::getenv("HALOFLAG_MPS")) sharing.mps_note = note;
  return sharing;
}

std::vector<halo::Strategy> needing_side_by_side(std::span<const halo::Strategy> asked) {
  std::vector<halo::Strategy> strategies;
  for (const halo::Strategy strategy : asked) {
    if (halo::uses_flags(strategy)) strategies.push_back(strategy);
  }
  return strategies;
}

}  // namespace haloflag::bench
