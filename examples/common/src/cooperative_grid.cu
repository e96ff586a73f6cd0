// CooperativeGrid for CUDA and (through notify/gpu_runtime.hpp) HIP.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "haloflag/examples/cooperative_grid.hpp"
#include "haloflag/examples/resident_grid_size.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::examples {

struct CooperativeGrid::Handles {
  haloflag::notify::GpuStream stream;
  haloflag::notify::GpuEvent begin;
  haloflag::notify::GpuEvent end;
};

CooperativeGrid::CooperativeGrid(std::initializer_list<const void*> kernels, int threads,
                                 int blocks, int sharers, std::int64_t cells)
    : threads_(threads), sharers_(std::max(sharers, 1)) {
  HF_GPU_CHECK(cudaGetDevice(&device_));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_));
  int cooperative = 0;
  HF_GPU_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device_));
  if (!cooperative) {
    throw std::runtime_error("the resident Jacobi kernel needs cooperative launches; GPU " +
                             std::to_string(device_) + " does not support them");
  }
  // The form is the launch's choice: every one must fit.
  bool first = true;
  for (const void* kernel : kernels) {
    int fits = 0;
    HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, threads_, 0));
    per_sm_ = first ? fits : std::min(per_sm_, fits);
    first = false;
  }
  // The grids of the ranks that share this GPU (under MPS) wait on one another through the
  // exchange, so all of them must be resident at once: each takes its share.
  const ResidentGridRoom room{sms_, per_sm_, sharers_};
  const int fit = static_cast<int>(room.fit());
  blocks_ = blocks > 0 ? blocks : default_resident_blocks(room, threads_, cells);
  if (blocks_ > fit || fit == 0) {
    throw std::runtime_error(
        "the resident Jacobi kernel asked for " + std::to_string(blocks_) + " blocks of " +
        std::to_string(threads_) + " threads, but GPU " + std::to_string(device_) +
        " fits only " + std::to_string(fit) + " at once (" + std::to_string(per_sm_) +
        " per SM x " + std::to_string(sms_) + " SMs" +
        (sharers_ > 1 ? " / " + std::to_string(sharers_) + " ranks sharing the GPU" : "") +
        "); ask for fewer with --resident-blocks");
  }
  handles_ = std::make_unique<Handles>();
}

CooperativeGrid::~CooperativeGrid() {
  if (handles_) (void)cudaStreamSynchronize(handles_->stream.get());
}

void CooperativeGrid::launch(const void* kernel, void** arguments) {
  const cudaStream_t stream = handles_->stream.get();
  HF_GPU_CHECK(cudaEventRecord(handles_->begin.get(), stream));
  HF_GPU_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(blocks_)),
                                           dim3(static_cast<unsigned>(threads_)), arguments, 0,
                                           stream));
  HF_GPU_CHECK(cudaEventRecord(handles_->end.get(), stream));
}

double CooperativeGrid::wait() {
  HF_GPU_CHECK(cudaEventSynchronize(handles_->end.get()));
  float milliseconds = 0.0f;
  HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, handles_->begin.get(), handles_->end.get()));
  return static_cast<double>(milliseconds) * 1e-3;
}

std::string CooperativeGrid::describe() const {
  return "cooperative grid: " + std::to_string(blocks_) + " blocks x " +
         std::to_string(threads_) + " threads on GPU " + std::to_string(device_);
}

}  // namespace haloflag::examples
