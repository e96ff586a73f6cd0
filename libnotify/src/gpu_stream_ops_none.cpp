#include "gpu_stream_ops.hpp"

#include "haloflag/notify/errors.hpp"

namespace haloflag::notify::detail {

namespace {
[[noreturn]] void no_gpu() {
  throw NotifyError("stream operations on a GPU stream: this build has no GPU backend");
}
}  // namespace

void gpu_check_stream_memory_ops() { no_gpu(); }
void gpu_stream_store64(void*, std::uint64_t*, std::uint64_t) { no_gpu(); }
void gpu_stream_store32(void*, std::uint32_t*, std::uint32_t) { no_gpu(); }
void gpu_stream_wait64(void*, const std::uint64_t*, std::uint64_t) { no_gpu(); }

}  // namespace haloflag::notify::detail
