// Host-only builds (HALOFLAG_GPU=none): there is no GPU device side.
#include "device_side.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::bench {

std::unique_ptr<DeviceSide> make_gpu_device_side(int) {
  throw notify::NotifyError(
      "this build has no GPU backend (configure with -DHALOFLAG_GPU=cuda or hip)");
}

}  // namespace haloflag::bench
