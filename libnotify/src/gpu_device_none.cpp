// Host-only builds: there is no GPU to choose.
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/gpu_device.hpp"

namespace haloflag::notify {

namespace {
[[noreturn]] void no_gpu() { throw NotifyError("this build has no GPU backend (HALOFLAG_GPU=none)"); }
}  // namespace

void set_current_gpu(int) { no_gpu(); }
int current_gpu() { no_gpu(); }
GpuDeviceInfo gpu_device_info(int) { no_gpu(); }
GpuMemoryInfo current_gpu_memory() { no_gpu(); }
bool enable_peer_access(int, int) { no_gpu(); }

}  // namespace haloflag::notify
