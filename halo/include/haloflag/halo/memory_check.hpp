/// @file
/// Refusing fields too large for the machine before any of their memory is allocated, with the
/// bytes they need and those there, as DeviceFields and HostField do for their own allocations:
/// for a program that allocates device memory itself (examples/jacobi3d) and would otherwise end
/// in std::bad_alloc or a failed cudaMalloc after part of it was allocated.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/notify/backend.hpp"

namespace haloflag::halo {

/// Throws ConfigError "<what> needs <bytes> of memory on GPU <n>; <free> of <total> is free"
/// (on the host backend: "... of host memory; <available> is available") when `bytes` exceed
/// what `backend`'s device memory has free now: the current GPU's, or the host's on the host
/// backend. `bytes` < 0 stands for a size beyond int64 (checked_bytes) and is always refused.
void require_device_memory(notify::Backend backend, std::int64_t bytes, const std::string& what);

/// `elements` x `bytes_each`, or -1 when either is negative or the product does not fit in int64.
std::int64_t checked_bytes(std::int64_t elements, std::int64_t bytes_each);

}  // namespace haloflag::halo
