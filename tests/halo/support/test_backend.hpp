// The backend an MPI test runs its exchanges on: HALOFLAG_TEST_BACKEND ("host" when unset,
// "cuda" or "hip"), and why this run cannot use it ("" when it can), for GTEST_SKIP.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <mpi.h>

#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"

namespace haloflag::test {

inline notify::Backend test_backend() {
  const char* name = std::getenv("HALOFLAG_TEST_BACKEND");
  return name == nullptr ? notify::Backend::host : notify::parse_backend(name);
}

// Checks once; on a GPU backend binds one GPU per node-local rank and prints which.
inline const std::string& backend_unavailable() {
  static const std::string why = [] {
    const notify::Backend backend = test_backend();
    if (backend == notify::Backend::host) return std::string();
    if (!notify::backend_compiled(backend)) {
      return "backend " + std::string(notify::to_string(backend)) + " not compiled in";
    }
    std::string reason;
    if (notify::gpu_device_count(&reason) == 0) return "no GPU: " + reason;
    const halo::GpuBinding binding = halo::bind_gpu(MPI_COMM_WORLD);
    std::printf("[rank %d] %s\n", world_rank(), binding.describe().c_str());
    return std::string();
  }();
  return why;
}

}  // namespace haloflag::test

// In a test body: skip, saying why, when this run cannot use its backend.
#define SKIP_WITHOUT_BACKEND()                                                                \
  do {                                                                                        \
    if (!::haloflag::test::backend_unavailable().empty()) {                                   \
      GTEST_SKIP() << ::haloflag::test::backend_unavailable();                                \
    }                                                                                         \
  } while (0)

// Skips, saying so, a test that means something only on a GPU backend (`what` says what needs
// it), and one whose backend this run cannot use.
#define SKIP_UNLESS_GPU_BACKEND(what)                                                        \
  do {                                                                                        \
    if (::haloflag::test::test_backend() == ::haloflag::notify::Backend::host) {              \
      GTEST_SKIP() << what << " needs a GPU backend: set HALOFLAG_TEST_BACKEND=cuda or hip";  \
    }                                                                                         \
    SKIP_WITHOUT_BACKEND();                                                                   \
  } while (0)
