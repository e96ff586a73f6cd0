#include "haloflag/bench/backend_choice.hpp"

#include "haloflag/bench/usage_error.hpp"

namespace haloflag::bench {

namespace {

// The GPU backend this build has, if any.
notify::Backend compiled_gpu_backend() {
  return notify::backend_compiled(notify::Backend::cuda) ? notify::Backend::cuda
                                                         : notify::Backend::hip;
}

}  // namespace

std::string BackendChoice::describe() const {
  std::string text(notify::to_string(backend));
  if (!reason.empty()) text += " (" + reason + ")";
  if (emulated()) text += "; host backend: CPU threads emulate the GPU, not GPU results";
  return text;
}

BackendChoice choose_backend(const std::string& requested) {
  BackendChoice choice;
  choice.requested = requested;
  std::string why;
  if (requested == "auto") {
    choice.backend = notify::best_available_backend();
    if (choice.backend == notify::Backend::host) {
      const notify::Backend gpu = compiled_gpu_backend();
      if (!notify::backend_compiled(gpu)) {
        choice.reason = "auto: no GPU backend compiled into this build";
      } else {
        notify::gpu_device_count(&why);
        choice.reason = "auto: " + std::string(notify::to_string(gpu)) + " unusable: " + why;
      }
    } else {
      choice.reason = "auto: best present";
    }
    return choice;
  }
  choice.backend = notify::parse_backend(requested);
  if (!notify::backend_compiled(choice.backend)) {
    throw UsageError("--backend " + requested + ": not compiled into this build (configure with "
                     "-DHALOFLAG_GPU=" + requested + ")");
  }
  if (choice.backend != notify::Backend::host && notify::gpu_device_count(&why) == 0) {
    throw UsageError("--backend " + requested + ": no usable GPU (" + why + ")");
  }
  choice.reason = "requested";
  return choice;
}

}  // namespace haloflag::bench
