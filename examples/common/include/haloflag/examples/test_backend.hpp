// What the stencil examples' MPI tests share about their backend: which one they test
// (HALOFLAG_TEST_BACKEND, host when unset), and on a GPU backend the binding done once per
// process. Header only: only the tests include it.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/notify/backend.hpp"

namespace haloflag::examples {

inline haloflag::notify::Backend test_backend() {
  const char* name = std::getenv("HALOFLAG_TEST_BACKEND");
  return name == nullptr ? haloflag::notify::Backend::host : haloflag::notify::parse_backend(name);
}

struct TestBackendSetup {
  std::string unavailable;  // why this run cannot use its backend ("" when it can)
  int gpu_sharers = 1;      // ranks whose grids share this rank's GPU
};

// The first call binds the GPU and loads the example's kernels (`load_kernels`), as main() does:
// loading a kernel lazily waits for every kernel running on the GPU, and a stream variant's
// resident kernels run until its exchange ends. Later calls return the first call's answer.
inline const TestBackendSetup& test_backend_setup(void (*load_kernels)()) {
  static const TestBackendSetup setup = [load_kernels] {
    TestBackendSetup result;
    const haloflag::notify::Backend backend = test_backend();
    if (backend == haloflag::notify::Backend::host) return result;
    if (!haloflag::notify::backend_compiled(backend)) {
      result.unavailable = "backend " + std::string(haloflag::notify::to_string(backend)) +
                           " not compiled in";
      return result;
    }
    std::string reason;
    if (haloflag::notify::gpu_device_count(&reason) == 0) {
      result.unavailable = "no GPU: " + reason;
      return result;
    }
    const auto binding = haloflag::halo::bind_gpu(MPI_COMM_WORLD);
    result.gpu_sharers = binding.sharers;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::printf("[rank %d] %s\n", rank, binding.describe().c_str());
    load_kernels();
    return result;
  }();
  return setup;
}

}  // namespace haloflag::examples
