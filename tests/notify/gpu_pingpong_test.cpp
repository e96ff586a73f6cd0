// On a GPU: a kernel and a host thread ping-pong 10^5 epochs through mapped flags, each epoch
// carrying a 128-word payload both ways that is checked word by word; plus device-side deadline
// and abort. Without a usable GPU every test skips and says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "gpu_test_kernels.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace hn = haloflag::notify;
namespace ht = haloflag::test;
using namespace std::chrono_literals;

namespace {

#if defined(HALOFLAG_HAVE_HIP)
constexpr hn::Backend kGpu = hn::Backend::hip;
#else
constexpr hn::Backend kGpu = hn::Backend::cuda;
#endif

#define SKIP_WITHOUT_GPU()                                              \
  do {                                                                  \
    std::string why;                                                    \
    if (hn::gpu_device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why; \
  } while (false)

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(GpuFlags, KernelAndHostPingPong100kEpochs) {
  SKIP_WITHOUT_GPU();
  constexpr std::uint64_t kEpochs = 100'000;
  constexpr unsigned kWords = ht::kPingPongThreads;
  hn::ControlBlock control(kGpu, 20s);
  hn::FlagArray to_device(control, 1, hn::FlagWriter::host, "unpack_ready");
  hn::FlagArray to_host(control, 1, hn::FlagWriter::device, "send_ready");
  hn::MappedAllocation down(kGpu, kWords * sizeof(std::uint64_t));
  hn::MappedAllocation up(kGpu, kWords * sizeof(std::uint64_t));
  ht::PingPongResult* result = nullptr;
  HF_GPU_CHECK(cudaMalloc(&result, sizeof(ht::PingPongResult)));
  HF_GPU_CHECK(cudaMemset(result, 0, sizeof(ht::PingPongResult)));

  ht::launch_pingpong(to_device.device_view(), to_host.device_view(),
                      static_cast<const std::uint64_t*>(down.device()),
                      static_cast<std::uint64_t*>(up.device()), kEpochs, control.device_control(), result);

  auto* host_down = static_cast<std::uint64_t*>(down.host());
  const auto* host_up = static_cast<const std::uint64_t*>(up.host());
  std::vector<double> round_trip_us;
  round_trip_us.reserve(kEpochs);
  std::uint64_t host_mismatches = 0;
  for (std::uint64_t epoch = 1; epoch <= kEpochs; ++epoch) {
    for (unsigned w = 0; w < kWords; ++w) host_down[w] = ht::payload_value(epoch, w, 1);
    const auto sent = std::chrono::steady_clock::now();
    to_device.signal(0, epoch);
    try {
      to_host.wait(0, epoch);
    } catch (const hn::NotifyError& error) {
      control.raise_abort();
      (void)cudaDeviceSynchronize();
      const auto device_failure = control.failure(hn::Side::device);
      FAIL() << error.what() << (device_failure ? "; " + device_failure->describe() : std::string());
    }
    round_trip_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - sent).count());
    for (unsigned w = 0; w < kWords; ++w) {
      if (host_up[w] != ht::payload_value(epoch, w, 0)) ++host_mismatches;
    }
  }
  HF_GPU_CHECK(cudaDeviceSynchronize());
  ht::PingPongResult device_result{};
  HF_GPU_CHECK(cudaMemcpy(&device_result, result, sizeof device_result, cudaMemcpyDeviceToHost));
  HF_GPU_CHECK(cudaFree(result));

  EXPECT_FALSE(control.failure(hn::Side::device).has_value());
  EXPECT_EQ(device_result.completed_epochs, kEpochs);
  EXPECT_EQ(device_result.mismatches, 0u) << "the kernel saw a stale host payload";
  EXPECT_EQ(host_mismatches, 0u) << "the host saw a stale device payload";

  std::sort(round_trip_us.begin(), round_trip_us.end());
  const auto at = [&](double q) {
    return round_trip_us[static_cast<std::size_t>(q * static_cast<double>(round_trip_us.size() - 1))];
  };
  std::printf("flag round trip host->GPU->host, %llu epochs, %u-word payload each way: "
              "median %.3f us, p10 %.3f us, p90 %.3f us, p99 %.3f us\n",
              static_cast<unsigned long long>(kEpochs), kWords, at(0.5), at(0.1), at(0.9), at(0.99));
  RecordProperty("round_trip_median_us", std::to_string(at(0.5)));
  RecordProperty("round_trip_p99_us", std::to_string(at(0.99)));
}

TEST(GpuFlags, DeviceWaitDeadlineFiresAndIsRecorded) {
  SKIP_WITHOUT_GPU();
  hn::ControlBlock control(kGpu, 50ms);
  hn::FlagArray flags(control, 4, hn::FlagWriter::host, "unpack_ready");
  flags.signal(2, 6);
  hn::MappedAllocation outcome(kGpu, sizeof(hn::WaitOutcome));
  const auto start = std::chrono::steady_clock::now();
  ht::launch_wait_one(flags.device_view(), 2, 7, control.device_control(),
                      static_cast<hn::WaitOutcome*>(outcome.device()));
  HF_GPU_CHECK(cudaDeviceSynchronize());
  const double waited = seconds_since(start);
  EXPECT_EQ(*static_cast<hn::WaitOutcome*>(outcome.host()), hn::WaitOutcome::timed_out);
  EXPECT_GE(waited, 0.050);
  EXPECT_LT(waited, 5.0);
  const auto failure = control.failure(hn::Side::device);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->array_name, "unpack_ready");
  EXPECT_EQ(failure->index, 2u);
  EXPECT_EQ(failure->expected_epoch, 7u);
  EXPECT_EQ(failure->last_seen, 6u);
  EXPECT_GE(failure->waited_ns, 50'000'000u);
}

TEST(GpuFlags, AbortEndsADeviceWait) {
  SKIP_WITHOUT_GPU();
  hn::ControlBlock control(kGpu, 60s);
  hn::FlagArray flags(control, 1, hn::FlagWriter::host, "unpack_ready");
  hn::MappedAllocation outcome(kGpu, sizeof(hn::WaitOutcome));
  const auto start = std::chrono::steady_clock::now();
  ht::launch_wait_one(flags.device_view(), 0, 1, control.device_control(),
                      static_cast<hn::WaitOutcome*>(outcome.device()));
  std::this_thread::sleep_for(50ms);
  control.raise_abort();
  HF_GPU_CHECK(cudaDeviceSynchronize());
  EXPECT_LT(seconds_since(start), 5.0);
  EXPECT_EQ(*static_cast<hn::WaitOutcome*>(outcome.host()), hn::WaitOutcome::aborted);
}
