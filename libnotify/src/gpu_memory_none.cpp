#include "gpu_memory.hpp"

#include "haloflag/notify/errors.hpp"

namespace haloflag::notify::detail {

void* gpu_alloc_mapped(std::size_t, void**) {
  throw NotifyError("this haloflag build has no GPU backend (configure with HALOFLAG_GPU=cuda or hip)");
}

void gpu_free_mapped(void*) noexcept {}

int gpu_count(std::string* why) {
  if (why) *why = "this haloflag build has no GPU backend (host backend only)";
  return 0;
}

}  // namespace haloflag::notify::detail
