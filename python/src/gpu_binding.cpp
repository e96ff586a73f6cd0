// _core.bind_gpu and _core.gpu_backend: the GPU a rank uses (halo::bind_gpu) and which GPU
// backend this build has, so the package picks the backend its arrays need.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/notify/backend.hpp"

namespace nb = nanobind;

namespace haloflag::python {

void bind_gpu_functions(nb::module_& module) {
  module.def("bind_gpu", [](std::int64_t comm_f, int requested) {
    const halo::GpuBinding binding =
        halo::bind_gpu(MPI_Comm_f2c(static_cast<MPI_Fint>(comm_f)), requested);
    return binding.device.index;
  });
  module.def("gpu_backend", []() -> std::string {
    // "" when the build has no GPU backend; the name even where no GPU is visible.
    if (notify::backend_compiled(notify::Backend::cuda)) return "cuda";
    if (notify::backend_compiled(notify::Backend::hip)) return "hip";
    return "";
  });
  module.def("gpu_count", []() {
    std::string why;
    const int count = notify::gpu_device_count(&why);
    return std::make_pair(count, why);
  });
}

}  // namespace haloflag::python
