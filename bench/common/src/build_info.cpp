#include "haloflag/bench/build_info.hpp"

#if !defined(HALOFLAG_SOURCE_DIR) || !defined(HALOFLAG_VERSION)
#error "bench/common/CMakeLists.txt passes the build facts to this file"
#endif

namespace haloflag::bench {

const BuildInfo& build_info() {
  static const BuildInfo info{HALOFLAG_VERSION, HALOFLAG_CXX_COMPILER, HALOFLAG_GPU_COMPILER,
                              HALOFLAG_BUILD_TYPE, HALOFLAG_GPU_BACKEND_BUILT};
  return info;
}

std::filesystem::path source_dir() { return HALOFLAG_SOURCE_DIR; }

}  // namespace haloflag::bench
