#include "memory_check.hpp"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/memory_check.hpp"
#include "haloflag/notify/gpu_device.hpp"

namespace haloflag::halo::detail {

namespace {

std::string describe_bytes(std::int64_t bytes) {
  if (bytes < 0) return "more than 8 EiB";
  char text[64];
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  std::snprintf(text, sizeof text, "%lld bytes (%.1f GiB)", static_cast<long long>(bytes), gib);
  return text;
}

}  // namespace

std::optional<std::int64_t> available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    std::int64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

std::int64_t checked_bytes(std::int64_t elements, std::int64_t bytes_each) {
  if (elements < 0 || bytes_each < 0) return -1;
  if (bytes_each != 0 && elements > std::numeric_limits<std::int64_t>::max() / bytes_each) {
    return -1;
  }
  return elements * bytes_each;
}

void require_host_memory(std::int64_t bytes, const std::string& what) {
  const std::optional<std::int64_t> available = available_host_bytes();
  if (bytes >= 0 && (!available || bytes <= *available)) return;
  throw ConfigError(what + " needs " + describe_bytes(bytes) + " of host memory; " +
                    (available ? describe_bytes(*available) + " is available (MemAvailable)"
                               : std::string("this system does not say how much is available")));
}

void require_gpu_memory(std::int64_t bytes, const std::string& what) {
  const notify::GpuMemoryInfo memory = notify::current_gpu_memory();
  if (bytes >= 0 && bytes <= memory.free_bytes) return;
  throw ConfigError(what + " needs " + describe_bytes(bytes) + " of memory on GPU " +
                    std::to_string(notify::current_gpu()) + "; " +
                    describe_bytes(memory.free_bytes) + " of " +
                    describe_bytes(memory.total_bytes) + " is free");
}

}  // namespace haloflag::halo::detail

namespace haloflag::halo {

// The public face of the checks above: the host backend's device memory is host memory.
void require_device_memory(notify::Backend backend, std::int64_t bytes, const std::string& what) {
  if (backend == notify::Backend::host) {
    detail::require_host_memory(bytes, what + " (host backend)");
  } else {
    detail::require_gpu_memory(bytes, what);
  }
}

std::int64_t checked_bytes(std::int64_t elements, std::int64_t bytes_each) {
  return detail::checked_bytes(elements, bytes_each);
}

}  // namespace haloflag::halo
