// What this executable was built from and with, recorded in every report, and where the
// source tree's shipped inputs (configs, parameter files) are.
#pragma once

#include <filesystem>
#include <string>

namespace haloflag::bench {

struct BuildInfo {
  std::string haloflag_version;  // the CMake project version
  std::string cxx_compiler;      // e.g. "GNU 12.2.0"
  std::string gpu_compiler;      // e.g. "NVIDIA 13.0.48"; empty in a host-only build
  std::string build_type;        // CMAKE_BUILD_TYPE
  std::string gpu_backend_built; // cuda, hip or none
};

const BuildInfo& build_info();

// The source tree this executable was configured from.
std::filesystem::path source_dir();

}  // namespace haloflag::bench
