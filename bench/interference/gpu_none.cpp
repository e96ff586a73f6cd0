// Host-only builds (HALOFLAG_GPU=none): there is no GPU accessor and no copy engine.
#include "copy_traffic.hpp"
#include "haloflag/notify/errors.hpp"
#include "memory_accessor.hpp"

namespace haloflag::bench::interference {

namespace {
[[noreturn]] void no_gpu() {
  throw notify::NotifyError(
      "this build has no GPU backend (configure with -DHALOFLAG_GPU=cuda or hip)");
}
}  // namespace

std::unique_ptr<MemoryAccessor> make_gpu_accessor(int, const AccessorSettings&,
                                                  const std::vector<AccessForm>&) {
  no_gpu();
}

std::unique_ptr<CopyTraffic> make_gpu_copy_traffic(int, std::size_t) { no_gpu(); }

}  // namespace haloflag::bench::interference
