#include "haloflag/notify/mapped_allocation.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu_memory.hpp"
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/flag_line.hpp"

namespace haloflag::notify {

MappedAllocation::MappedAllocation(Backend backend, std::size_t bytes)
    : memory_(allocate(backend, bytes)) {}

MappedAllocation::Memory MappedAllocation::allocate(Backend backend, std::size_t bytes) {
  Memory memory{backend};
  if (bytes == 0) return memory;
  if (!backend_compiled(backend)) {
    throw NotifyError("cannot allocate mapped memory for backend '" + std::string(to_string(backend)) +
                      "': not compiled into this build");
  }
  // Whole lines, so the last flag never shares its line with a neighbouring allocation.
  memory.bytes = (bytes + kFlagLineBytes - 1) / kFlagLineBytes * kFlagLineBytes;
  if (backend == Backend::host) {
    memory.host = std::aligned_alloc(kFlagLineBytes, memory.bytes);
    if (memory.host == nullptr) {
      throw NotifyError("aligned_alloc of " + std::to_string(memory.bytes) + " bytes failed");
    }
    memory.device = memory.host;
  } else {
    memory.host = detail::gpu_alloc_mapped(memory.bytes, &memory.device);
  }
  std::memset(memory.host, 0, memory.bytes);
  return memory;
}

void MappedAllocation::Memory::release() noexcept {
  if (host == nullptr) return;
  if (backend == Backend::host) {
    std::free(host);
  } else {
    detail::gpu_free_mapped(host);
  }
}

}  // namespace haloflag::notify
