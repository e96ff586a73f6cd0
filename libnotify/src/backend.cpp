#include "haloflag/notify/backend.hpp"

#include "gpu_memory.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::notify {

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::host: return "host";
    case Backend::cuda: return "cuda";
    case Backend::hip: return "hip";
  }
  return "unknown";
}

Backend parse_backend(std::string_view name) {
  if (name == "host") return Backend::host;
  if (name == "cuda") return Backend::cuda;
  if (name == "hip") return Backend::hip;
  if (name == "auto") return best_available_backend();
  throw NotifyError(ErrorKind::usage, "unknown backend '" + std::string(name) + "' (expected host, cuda, hip or auto)");
}

bool backend_compiled(Backend backend) {
  switch (backend) {
    case Backend::host: return true;
#if defined(HALOFLAG_HAVE_CUDA)
    case Backend::cuda: return true;
#else
    case Backend::cuda: return false;
#endif
#if defined(HALOFLAG_HAVE_HIP)
    case Backend::hip: return true;
#else
    case Backend::hip: return false;
#endif
  }
  return false;
}

int gpu_device_count(std::string* why) { return detail::gpu_count(why); }

Backend best_available_backend() {
  if (gpu_device_count() > 0) {
    return backend_compiled(Backend::cuda) ? Backend::cuda : Backend::hip;
  }
  return Backend::host;
}

}  // namespace haloflag::notify
