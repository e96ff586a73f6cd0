// What a report needs to name a GPU and its software (notify_latency's device, interference's
// writing GPU).
#pragma once

#include <optional>
#include <string>

namespace haloflag::bench {

struct GpuFacts {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  std::string architecture;  // e.g. "sm_90" or "gfx90a"
  int multiprocessors = 0;
  std::string driver_version;   // e.g. "13.0"
  std::string runtime_version;  // e.g. "13.0"
  // Whether CPU and GPU atomics on mapped memory are coherent (CUDA only; the flags never rely
  // on it, docs/design.md, rule 1).
  std::optional<bool> host_native_atomics;

  // e.g. "GPU 0: NVIDIA H100 80GB HBM3 [0000:19:00.0]"
  std::string describe() const {
    return "GPU " + std::to_string(index) + ": " + name + " [" + pci_bus_id + "]";
  }
};

// GPU `index` as the runtime describes it (CUDA and HIP builds only: src/gpu_facts.cu). Throws
// notify::NotifyError when the runtime fails.
GpuFacts collect_gpu_facts(int index);

}  // namespace haloflag::bench
