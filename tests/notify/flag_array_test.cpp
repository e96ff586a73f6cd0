// The owning flag API on the host backend: layout, host signal/test/wait, deadlines, abort,
// failure records and misuse.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/flag_ops.hpp"

namespace hn = haloflag::notify;
using namespace std::chrono_literals;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(FlagArray, EachFlagOwnsAnAlignedLine) {
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray flags(control, 5, hn::FlagWriter::device, "send_ready");
  const auto view = flags.host_view();
  ASSERT_EQ(view.count, 5u);
  for (std::uint32_t i = 0; i < view.count; ++i) {
    const auto address = reinterpret_cast<std::uintptr_t>(view.word(i));
    EXPECT_EQ(address % hn::kFlagLineBytes, 0u) << "flag " << i;
    if (i > 0) {
      EXPECT_EQ(address - reinterpret_cast<std::uintptr_t>(view.word(i - 1)), hn::kFlagLineBytes);
    }
    EXPECT_EQ(flags.value(i), 0u) << "flags start at epoch 0";
  }
  EXPECT_EQ(flags.name(), "send_ready");
  EXPECT_EQ(flags.device_view().lines, view.lines) << "host backend: one address space";
}

TEST(FlagArray, HostSignalTestWait) {
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray flags(control, 3, hn::FlagWriter::host, "unpack_ready");
  EXPECT_FALSE(flags.test(1, 1));
  flags.signal(1, 7);
  EXPECT_TRUE(flags.test(1, 7));
  EXPECT_TRUE(flags.test(1, 3)) << "waiting means flag >= epoch";
  EXPECT_FALSE(flags.test(1, 8));
  EXPECT_FALSE(flags.test(0, 1)) << "neighbouring flags are independent";
  flags.wait(1, 7);  // already satisfied: returns at once
  EXPECT_EQ(flags.value(1), 7u);
}

TEST(FlagArray, EpochsRunAMillionStepsWithoutReset) {
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray flags(control, 1, hn::FlagWriter::host, "unpack_ready");
  constexpr std::uint64_t kSteps = 1'000'000;
  for (std::uint64_t epoch = 1; epoch <= kSteps; ++epoch) {
    flags.signal(0, epoch);
    if (!flags.test(0, epoch) || flags.test(0, epoch + 1)) {
      FAIL() << "flag does not hold exactly epoch " << epoch;
    }
  }
  EXPECT_EQ(flags.value(0), kSteps);
}

TEST(FlagArray, RejectsMisuseWithNamedFlag) {
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray device_written(control, 2, hn::FlagWriter::device, "send_ready");
  hn::FlagArray host_written(control, 2, hn::FlagWriter::host, "unpack_ready");
  try {
    device_written.signal(0, 1);
    FAIL() << "host signal on a device-written array must throw";
  } catch (const hn::NotifyError& error) {
    EXPECT_NE(std::string(error.what()).find("send_ready[0]"), std::string::npos) << error.what();
  }
  try {
    host_written.test(2, 1);
    FAIL() << "out-of-range index must throw";
  } catch (const hn::NotifyError& error) {
    EXPECT_NE(std::string(error.what()).find("unpack_ready[2]"), std::string::npos) << error.what();
  }
  host_written.signal(1, 10);
  try {
    host_written.signal(1, 9);
    FAIL() << "a lower epoch must throw";
  } catch (const hn::NotifyError& error) {
    EXPECT_NE(std::string(error.what()).find("never reset"), std::string::npos) << error.what();
  }
  EXPECT_THROW(hn::FlagArray(control, 0, hn::FlagWriter::host, "empty"), hn::NotifyError);
  EXPECT_THROW(hn::ControlBlock(hn::Backend::host, 0ns), hn::NotifyError);
  EXPECT_THROW(control.set_timeout(-1ms), hn::NotifyError);
}

TEST(FlagArray, HostWaitDeadlineFiresAndNamesTheFlag) {
  hn::ControlBlock control(hn::Backend::host, 50ms);
  hn::FlagArray flags(control, 4, hn::FlagWriter::device, "send_ready");
  const auto start = std::chrono::steady_clock::now();
  try {
    flags.wait(3, 42, /*waiter=*/9);
    FAIL() << "wait on a flag nobody sets must time out";
  } catch (const hn::FlagWaitError& error) {
    const double waited = seconds_since(start);
    EXPECT_GE(waited, 0.050);
    EXPECT_LT(waited, 2.0) << "deadline overshoot";
    const auto& failure = error.failure();
    EXPECT_EQ(failure.side, hn::Side::host);
    EXPECT_EQ(failure.outcome, hn::WaitOutcome::timed_out);
    EXPECT_EQ(failure.array_name, "send_ready");
    EXPECT_EQ(failure.index, 3u);
    EXPECT_EQ(failure.expected_epoch, 42u);
    EXPECT_EQ(failure.last_seen, 0u);
    EXPECT_EQ(failure.waiter, 9u);
    const std::string text = error.what();
    EXPECT_NE(text.find("host-side wait on send_ready[3] timed out"), std::string::npos) << text;
    EXPECT_NE(text.find("expected epoch >= 42, last seen 0"), std::string::npos) << text;
  }
  const auto recorded = control.failure(hn::Side::host);
  ASSERT_TRUE(recorded.has_value()) << "the control block keeps the first host failure";
  EXPECT_EQ(recorded->index, 3u);
  EXPECT_FALSE(control.failure(hn::Side::device).has_value());
}

TEST(FlagArray, AbortEndsAHostWait) {
  hn::ControlBlock control(hn::Backend::host, 60s);
  hn::FlagArray flags(control, 1, hn::FlagWriter::device, "send_ready");
  std::thread aborter([&] {
    std::this_thread::sleep_for(30ms);
    control.raise_abort();
  });
  const auto start = std::chrono::steady_clock::now();
  try {
    flags.wait(0, 1);
    FAIL() << "abort must end the wait";
  } catch (const hn::FlagWaitError& error) {
    EXPECT_EQ(error.failure().outcome, hn::WaitOutcome::aborted);
    EXPECT_NE(std::string(error.what()).find("aborted"), std::string::npos) << error.what();
  }
  EXPECT_LT(seconds_since(start), 5.0) << "abort must end the wait long before its 60 s deadline";
  aborter.join();
  EXPECT_TRUE(control.abort_raised());
}

TEST(Backend, NamesAndParsing) {
  EXPECT_EQ(hn::to_string(hn::Backend::host), "host");
  EXPECT_EQ(hn::parse_backend("cuda"), hn::Backend::cuda);
  EXPECT_EQ(hn::parse_backend("hip"), hn::Backend::hip);
  EXPECT_TRUE(hn::backend_compiled(hn::Backend::host));
  EXPECT_THROW(hn::parse_backend("opencl"), hn::NotifyError);
  std::string why;
  if (hn::gpu_device_count(&why) == 0) {
    EXPECT_FALSE(why.empty()) << "no GPU must come with a reason";
    EXPECT_EQ(hn::best_available_backend(), hn::Backend::host);
  }
}
