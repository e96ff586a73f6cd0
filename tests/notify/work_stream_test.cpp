// WorkStream's conversions: a HostQueue and nullptr (the default stream) convert by themselves,
// a GPU stream only when wrapped explicitly. Any pointer used to convert, so a FieldSet* given to
// Exchange::start compiled as a stream-ordered start; the static_asserts keep that from coming
// back (the Exchange-level check is in tests/halo/exchange/stream_exchange_mpi_test.cpp).
#include <gtest/gtest.h>

#include <type_traits>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "haloflag/notify/work_stream.hpp"

namespace hn = haloflag::notify;

namespace {

// Stands in for CUstream_st / ihipStream_t, the opaque structs behind cudaStream_t / hipStream_t.
struct OpaqueGpuStream;
using FakeGpuStream = OpaqueGpuStream*;

static_assert(std::is_convertible_v<hn::HostQueue&, hn::WorkStream>,
              "a HostQueue is a stream by itself");
static_assert(std::is_convertible_v<std::nullptr_t, hn::WorkStream>,
              "nullptr names the GPU's default stream");
static_assert(!std::is_convertible_v<haloflag::kernels::FieldSet*, hn::WorkStream>,
              "a FieldSet* must not pass for a stream");
static_assert(!std::is_convertible_v<const haloflag::kernels::FieldSet*, hn::WorkStream>,
              "a FieldSet* must not pass for a stream");
static_assert(!std::is_convertible_v<int*, hn::WorkStream>, "an int* must not pass for a stream");
static_assert(!std::is_convertible_v<FakeGpuStream, hn::WorkStream>,
              "a GPU stream converts only explicitly");
static_assert(std::is_constructible_v<hn::WorkStream, FakeGpuStream>,
              "notify::WorkStream(stream) wraps a GPU stream");

}  // namespace

TEST(WorkStream, AHostQueueConvertsToItself) {
  hn::HostQueue queue;
  const hn::WorkStream stream = queue;
  EXPECT_TRUE(stream.is_host_queue());
  EXPECT_EQ(stream.host_queue(), &queue);
  EXPECT_EQ(stream.gpu_stream(), nullptr);
}

TEST(WorkStream, AWrappedGpuStreamKeepsItsHandle) {
  int stand_in = 0;  // any address: WorkStream never dereferences the handle
  const auto handle = reinterpret_cast<FakeGpuStream>(&stand_in);
  const hn::WorkStream stream(handle);
  EXPECT_FALSE(stream.is_host_queue());
  EXPECT_EQ(stream.host_queue(), nullptr);
  EXPECT_EQ(stream.gpu_stream(), static_cast<void*>(handle));
}

TEST(WorkStream, NullptrIsTheDefaultGpuStream) {
  const hn::WorkStream stream = nullptr;
  EXPECT_FALSE(stream.is_host_queue());
  EXPECT_EQ(stream.gpu_stream(), nullptr);
}
