// The device-side operations (signal_flag / poll_flag / wait_flag) run by CPU threads, as the
// host backend runs them: payload visibility, group signalling, device-side deadlines and abort.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace hn = haloflag::notify;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kPayloadWords = 64;

std::uint64_t payload_value(std::uint64_t epoch, std::size_t word, std::uint64_t direction) {
  return (epoch * 1'000'003u + word * 7919u) ^ (direction << 60);
}

}  // namespace

// A "device" team of 4 threads writes a payload, meets at a barrier, and one thread signals;
// the host waits, checks every word, writes its reply payload and signals back. Every epoch's
// payload must be complete the moment its flag is seen, in both directions.
TEST(HostTeamProtocol, PayloadIsVisibleOnceTheFlagIs) {
  constexpr std::uint64_t kEpochs = 20'000;
  constexpr std::size_t kTeam = 4;
  hn::ControlBlock control(hn::Backend::host, 60s);
  hn::FlagArray to_host(control, 1, hn::FlagWriter::device, "send_ready");
  hn::FlagArray to_device(control, 1, hn::FlagWriter::host, "unpack_ready");
  hn::MappedAllocation up(hn::Backend::host, kPayloadWords * sizeof(std::uint64_t));
  hn::MappedAllocation down(hn::Backend::host, kPayloadWords * sizeof(std::uint64_t));
  auto* up_words = static_cast<std::uint64_t*>(up.device());
  auto* down_words = static_cast<std::uint64_t*>(down.device());

  const hn::FlagArrayView send_view = to_host.device_view();
  const hn::FlagArrayView recv_view = to_device.device_view();
  const hn::WaitControl device_control = control.device_control();
  std::barrier team_barrier(static_cast<std::ptrdiff_t>(kTeam));
  std::atomic<std::uint64_t> device_mismatches{0};
  std::atomic<bool> device_failed{false};

  auto device_thread = [&](std::size_t rank_in_team) {
    for (std::uint64_t epoch = 1; epoch <= kEpochs; ++epoch) {
      for (std::size_t w = rank_in_team; w < kPayloadWords; w += kTeam) {
        up_words[w] = payload_value(epoch, w, 0);
      }
      team_barrier.arrive_and_wait();  // whole payload written before the one signal
      if (rank_in_team == 0) hn::signal_flag(send_view, 0, epoch);
      // Every team thread waits for the host's reply and checks its share of it.
      if (hn::wait_flag(recv_view, 0, epoch, device_control, hn::Side::device,
                        static_cast<std::uint32_t>(rank_in_team)) != hn::WaitOutcome::ready) {
        device_failed = true;
        return;
      }
      for (std::size_t w = rank_in_team; w < kPayloadWords; w += kTeam) {
        if (down_words[w] != payload_value(epoch, w, 1)) ++device_mismatches;
      }
      team_barrier.arrive_and_wait();  // all read the reply before it is overwritten
    }
  };
  std::vector<std::thread> team;
  for (std::size_t t = 0; t < kTeam; ++t) team.emplace_back(device_thread, t);

  auto* host_up = static_cast<const std::uint64_t*>(up.host());
  auto* host_down = static_cast<std::uint64_t*>(down.host());
  std::uint64_t host_mismatches = 0;
  for (std::uint64_t epoch = 1; epoch <= kEpochs; ++epoch) {
    to_host.wait(0, epoch);
    for (std::size_t w = 0; w < kPayloadWords; ++w) {
      if (host_up[w] != payload_value(epoch, w, 0)) ++host_mismatches;
    }
    for (std::size_t w = 0; w < kPayloadWords; ++w) host_down[w] = payload_value(epoch, w, 1);
    to_device.signal(0, epoch);
  }
  for (auto& thread : team) thread.join();
  EXPECT_FALSE(device_failed.load()) << control.failure(hn::Side::device)->describe();
  EXPECT_EQ(host_mismatches, 0u);
  EXPECT_EQ(device_mismatches.load(), 0u);
  EXPECT_EQ(to_host.value(0), kEpochs);
  EXPECT_EQ(to_device.value(0), kEpochs);
}

// A device-side writer streams a million epochs with no re-arming; the host poller must see
// them in order (never a lower value after a higher one) and end at the last.
TEST(HostTeamProtocol, AMillionDeviceEpochsAreMonotonic) {
  constexpr std::uint64_t kEpochs = 1'000'000;
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray flags(control, 1, hn::FlagWriter::device, "send_ready");
  const hn::FlagArrayView view = flags.device_view();
  std::thread writer([&] {
    for (std::uint64_t epoch = 1; epoch <= kEpochs; ++epoch) hn::signal_flag(view, 0, epoch);
  });
  std::uint64_t last = 0;
  std::uint64_t decreases = 0;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (last < kEpochs && std::chrono::steady_clock::now() < deadline) {
    const std::uint64_t now = flags.value(0);
    if (now < last) ++decreases;
    last = now;
  }
  writer.join();
  EXPECT_EQ(decreases, 0u);
  EXPECT_EQ(last, kEpochs);
}

TEST(HostTeamProtocol, DeviceSideDeadlineRecordsTheFailure) {
  hn::ControlBlock control(hn::Backend::host, 40ms);
  hn::FlagArray flags(control, 8, hn::FlagWriter::host, "unpack_ready");
  flags.signal(5, 2);
  const hn::WaitControl device_control = control.device_control();
  const hn::FlagArrayView view = flags.device_view();
  hn::WaitOutcome outcomes[2] = {hn::WaitOutcome::ready, hn::WaitOutcome::ready};
  const auto start = std::chrono::steady_clock::now();
  // Two "blocks" fail; only the first is recorded, and the record is complete.
  std::thread first([&] { outcomes[0] = hn::wait_flag(view, 5, 3, device_control, hn::Side::device, 11); });
  first.join();
  std::thread second([&] { outcomes[1] = hn::wait_flag(view, 6, 1, device_control, hn::Side::device, 12); });
  second.join();
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(outcomes[0], hn::WaitOutcome::timed_out);
  EXPECT_EQ(outcomes[1], hn::WaitOutcome::timed_out);
  EXPECT_GE(waited, 0.080);
  EXPECT_LT(waited, 3.0);

  const auto failure = control.failure(hn::Side::device);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->array_name, "unpack_ready");
  EXPECT_EQ(failure->index, 5u);
  EXPECT_EQ(failure->expected_epoch, 3u);
  EXPECT_EQ(failure->last_seen, 2u);
  EXPECT_EQ(failure->waiter, 11u);
  EXPECT_GE(failure->waited_ns, 40'000'000u);
  try {
    control.throw_if_device_failed();
    FAIL() << "a recorded device failure must throw";
  } catch (const hn::FlagWaitError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("device-side wait on unpack_ready[5] timed out"), std::string::npos) << text;
    EXPECT_NE(text.find("expected epoch >= 3, last seen 2 (block 11)"), std::string::npos) << text;
  }
}

// A wait hands back the value that ended it, so that a watcher relays what it saw without
// reading a word in pinned host memory across the bus again: the value stored, not the epoch
// waited for, and the kernels' stop value (the largest) when the host stopped them.
TEST(HostTeamProtocol, AWaitHandsBackTheValueThatEndedIt) {
  hn::ControlBlock control(hn::Backend::host, 5s);
  hn::FlagArray flags(control, 1, hn::FlagWriter::host, "pack_start");
  const hn::WaitControl device_control = control.device_control();
  const std::uint64_t* word = flags.device_view().word(0);
  const auto wait_for = [&](std::uint64_t epoch, std::uint64_t& seen) {
    return hn::wait_word_or_leave(word, flags.device_view().array_id, 0, epoch, device_control,
                                  hn::Side::device, 0, hn::AbortReads::periodic,
                                  hn::Scope::system, 0, hn::NeverLeave{}, &seen);
  };
  std::uint64_t seen = 0;
  flags.signal(0, 7);
  EXPECT_EQ(wait_for(5, seen), hn::WaitOutcome::ready);
  EXPECT_EQ(seen, 7u);  // already there at the first look
  std::thread host([&] {
    std::this_thread::sleep_for(20ms);
    flags.signal(0, 9);
  });
  EXPECT_EQ(wait_for(8, seen), hn::WaitOutcome::ready);
  host.join();
  EXPECT_EQ(seen, 9u);  // seen while polling
  constexpr std::uint64_t kStop = std::numeric_limits<std::uint64_t>::max();
  flags.signal(0, kStop);
  EXPECT_EQ(wait_for(10, seen), hn::WaitOutcome::ready);
  EXPECT_EQ(seen, kStop);
}

TEST(HostTeamProtocol, AbortEndsEveryDeviceSideWait) {
  hn::ControlBlock control(hn::Backend::host, 60s);
  hn::FlagArray flags(control, 4, hn::FlagWriter::host, "unpack_ready");
  const hn::WaitControl device_control = control.device_control();
  const hn::FlagArrayView view = flags.device_view();
  std::array<hn::WaitOutcome, 4> outcomes{};
  std::vector<std::thread> blocks;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t b = 0; b < 4; ++b) {
    blocks.emplace_back([&, b] { outcomes[b] = hn::wait_flag(view, b, 1, device_control, hn::Side::device, b); });
  }
  std::this_thread::sleep_for(30ms);
  control.raise_abort();
  for (auto& block : blocks) block.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  for (const auto outcome : outcomes) EXPECT_EQ(outcome, hn::WaitOutcome::aborted);
  const auto failure = control.failure(hn::Side::device);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->outcome, hn::WaitOutcome::aborted);
}

// Of many blocks waiting on one word, one reads the abort flag (AbortReads::periodic) and the
// others only the device's own memory (AbortReads::none): the abort reaches them all through
// the device_failed mirror that the first one's failure sets, long before their deadline.
TEST(HostTeamProtocol, AbortReachesWaitsWithoutAbortReadsThroughTheDeviceMirror) {
  hn::ControlBlock control(hn::Backend::host, 60s);
  hn::FlagArray flags(control, 1, hn::FlagWriter::host, "node_arrival");
  std::uint64_t mirror = 0;
  hn::WaitControl device_control = control.device_control();
  device_control.device_failed = &mirror;
  const std::uint64_t* word = flags.device_view().word(0);
  std::array<hn::WaitOutcome, 4> outcomes{};
  std::vector<std::thread> blocks;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t b = 0; b < 4; ++b) {
    blocks.emplace_back([&, b] {
      outcomes[b] = hn::wait_word(word, flags.device_view().array_id, 0, 1, device_control,
                                  hn::Side::device, b,
                                  b == 0 ? hn::AbortReads::periodic : hn::AbortReads::none);
    });
  }
  std::this_thread::sleep_for(30ms);
  control.raise_abort();
  for (auto& block : blocks) block.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  for (const auto outcome : outcomes) EXPECT_EQ(outcome, hn::WaitOutcome::aborted);
  EXPECT_EQ(mirror, 1u);
  const auto failure = control.failure(hn::Side::device);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->waiter, 0u);  // the one that read the abort flag
}
