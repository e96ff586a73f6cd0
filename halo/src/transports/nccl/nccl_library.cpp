#include "haloflag/halo/nccl_library.hpp"

#if !defined(HALOFLAG_NCCL_NOTE) || !defined(HALOFLAG_NCCL_NAME)
#error "halo/CMakeLists.txt passes configure's findings about NCCL to this file"
#endif

#if defined(HALOFLAG_HAVE_NCCL)
#include "transports/nccl/nccl_api.hpp"
#endif

namespace haloflag::halo {

namespace {

#if defined(HALOFLAG_HAVE_NCCL)
// NCCL 2.9 and later encode a version as major * 10000 + minor * 100 + patch.
std::string version_text(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}
#endif

}  // namespace

NcclLibrary nccl_library() {
  NcclLibrary library;
  library.name = HALOFLAG_NCCL_NAME;
  library.note = HALOFLAG_NCCL_NOTE;
#if defined(HALOFLAG_HAVE_NCCL)
  library.built = true;
  library.header_version = version_text(NCCL_VERSION_CODE);
  int loaded = 0;
  library.runtime_version = ncclGetVersion(&loaded) == ncclSuccess
                                ? version_text(loaded)
                                : "unknown (ncclGetVersion failed)";
#endif
  return library;
}

}  // namespace haloflag::halo
