// Who runs the access program (access_program.hpp) on the sender: the GPU (a kernel per round:
// one block for the stream form, a cooperative grid for the stacked form), or, on the host
// backend, CPU threads standing in for it.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "access_program.hpp"
#include "haloflag/bench/gpu_facts.hpp"
#include "scenario.hpp"

namespace haloflag::bench::interference {

// How many threads write in one access form, and in what shape.
struct AccessShape {
  int blocks = 1;
  int threads = 1;  // per block
  // Stacked form on a GPU: how many blocks fit on one multiprocessor (occupancy) and how many
  // multiprocessors there are; 0 elsewhere.
  int blocks_per_multiprocessor = 0;
  int multiprocessors = 0;
  std::string description;  // e.g. "264 blocks x 1024 threads, cooperative (2 per SM x 132 SMs)"
};

struct AccessorSettings {
  int stream_threads = 0;   // 0: the most a block of the kernel can have
  int stacked_threads = 0;  // 0: the most a block of the kernel can have
  int stacked_blocks = 0;   // 0: as many as can be resident at once
  int host_threads = 2;     // host backend, stacked form: stand-in threads
};

class MemoryAccessor {
 public:
  virtual ~MemoryAccessor() = default;

  // e.g. "GPU 0: NVIDIA H100 80GB HBM3 [0000:19:00.0]" or "CPU threads standing in for the GPU".
  virtual std::string describe() const = 0;
  virtual std::optional<GpuFacts> gpu_facts() const = 0;
  virtual const AccessShape& shape(AccessForm form) const = 0;

  // Starts one round; returns at once. finish() waits until it has ended, at most `deadline`
  // (the program's own deadline ends it first), and throws notify::NotifyError when it did not
  // end in time or the GPU runtime reported an error.
  virtual void start(AccessForm form, const AccessPlan& plan) = 0;
  virtual void finish(std::chrono::nanoseconds deadline) = 0;
};

// CPU threads: one for the stream form, settings.host_threads for the stacked form.
std::unique_ptr<MemoryAccessor> make_host_accessor(const AccessorSettings& settings);
// GPU `index` (already current for this thread). The shapes of `forms` are resolved here: a
// stacked grid that cannot be resident at once, or a GPU without cooperative launches, is
// refused with UsageError naming what was asked and what fits. Throws NotifyError in a build
// without a GPU backend.
std::unique_ptr<MemoryAccessor> make_gpu_accessor(int index, const AccessorSettings& settings,
                                                  const std::vector<AccessForm>& forms);

}  // namespace haloflag::bench::interference
