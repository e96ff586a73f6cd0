/// @file
/// The collective library behind Strategy::nccl in this build: NCCL for CUDA, RCCL for HIP, or
/// why the strategy was left out when configure found neither (cmake/HaloflagNccl.cmake).
#pragma once

#include <string>

namespace haloflag::halo {

/// The NCCL (or RCCL) library of this build, if any.
struct NcclLibrary {
  bool built = false;           ///< Strategy::nccl is in this build
  std::string name;             ///< "NCCL" or "RCCL"
  /// Configure's one line: the version and where it came from, or why the strategy is not built.
  std::string note;
  std::string header_version;   ///< the header compiled against, "2.28.9"; empty when not built
  std::string runtime_version;  ///< the library loaded in this process (ncclGetVersion); likewise
};

/// What this build and process know of NCCL.
NcclLibrary nccl_library();

}  // namespace haloflag::halo
