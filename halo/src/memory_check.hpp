// Refusing an allocation that cannot succeed before any of it is made, so that a field too
// large for the machine ends with its size and the memory there instead of std::bad_alloc
// (or the kernel's OOM killer) after part of it was allocated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace haloflag::halo::detail {

// Bytes of host memory the system could give now (Linux: MemAvailable of /proc/meminfo), or
// empty when it cannot tell.
std::optional<std::int64_t> available_host_bytes();

// Throws ConfigError "<what> needs <bytes> of host memory; <available> is available" when
// `bytes` exceeds what the system could give now. `bytes` < 0 stands for a size beyond int64.
void require_host_memory(std::int64_t bytes, const std::string& what);

// Throws ConfigError "<what> needs <bytes> of memory on GPU <n>; <free> of <total> is free"
// when `bytes` exceeds what the current GPU has free now. `bytes` < 0 as above.
void require_gpu_memory(std::int64_t bytes, const std::string& what);

// elements x bytes_each, or -1 when that does not fit in int64.
std::int64_t checked_bytes(std::int64_t elements, std::int64_t bytes_each);

}  // namespace haloflag::halo::detail
