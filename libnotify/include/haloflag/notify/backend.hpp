/// @file
/// The three ways to run the same kernels (docs/design.md, backends).
#pragma once

#include <string>
#include <string_view>

namespace haloflag::notify {

/// Where flags live and who runs the exchange kernels: CPU threads, CUDA or HIP.
enum class Backend { host, cuda, hip };

/// The backend's name ("host", "cuda" or "hip").
std::string_view to_string(Backend backend);

/// Parses "host", "cuda", "hip" or "auto" (the best present); throws NotifyError otherwise.
Backend parse_backend(std::string_view name);

/// Whether this build contains the backend's code (host always; cuda or hip by build option).
bool backend_compiled(Backend backend);

/// Number of usable GPUs for the compiled GPU backend; 0 without one. When it returns 0,
/// `why` (if given) says why: not compiled in, no driver, no device, ...
int gpu_device_count(std::string* why = nullptr);

/// The GPU backend when it is compiled in and a device is present, else host.
Backend best_available_backend();

}  // namespace haloflag::notify
