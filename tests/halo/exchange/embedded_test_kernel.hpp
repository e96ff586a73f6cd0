// A "user kernel" for the embedded-exchange test: a persistent CUDA/HIP kernel that packs and
// unpacks through haloflag/kernels/embedded_api.hpp for many epochs, as a stencil code would.
// Host-callable; only built with a GPU backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::test {

// What one block of the kernel did.
struct EmbeddedBlockReport {
  std::uint32_t epochs_done;  // iterations it completed (packed and unpacked its messages)
  std::int32_t status;        // a kernels::BlockStatus: ok, or failed from the call that failed
  std::int32_t saw_failure;   // kernels::embedded_failed(plan) when it left
  std::int32_t unused;
};

// One block per message index (block b packs send b and unpacks receive b), `threads` threads
// each, on a non-blocking stream of its own, so the host's copies and the Exchange's work do
// not wait for it. Iteration i uses epoch first_epoch + i and the fields `even` for even i and
// `odd` for odd i (double buffering through plan.with_fields).
class EmbeddedTestKernel {
 public:
  // Throws std::runtime_error when the blocks cannot all be resident at once (they wait on each
  // other through MPI) or the launch fails.
  EmbeddedTestKernel(const kernels::DevicePlan& plan, const kernels::FieldSet& even,
                     const kernels::FieldSet& odd, std::uint64_t first_epoch, std::uint32_t epochs,
                     int threads);
  ~EmbeddedTestKernel();  // waits for the kernel (it ends by itself: every wait has a deadline)
  EmbeddedTestKernel(const EmbeddedTestKernel&) = delete;
  EmbeddedTestKernel& operator=(const EmbeddedTestKernel&) = delete;

  // Waits for the kernel to end; one report per block. Throws on a kernel fault.
  std::vector<EmbeddedBlockReport> wait();
  int blocks() const { return blocks_; }

 private:
  void* stream_ = nullptr;
  EmbeddedBlockReport* reports_ = nullptr;  // device memory
  int blocks_ = 0;
};

}  // namespace haloflag::test
