// The device side of each measurement, written once: a GPU kernel runs each program on one
// thread, and on the host backend a CPU thread standing in for the GPU runs it unchanged.
// Programs report through plain pointers into device memory (kernels::DeviceMemory), never by
// exceptions, and every wait in them has the control block's deadline.
#pragma once

#include <cstdint>

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::bench {

// The device half of a ping-pong: for epochs 1..epochs, wait until to_device[0] >= epoch, then
// signal to_host[0] = epoch.
struct ResponderPlan {
  notify::FlagArrayView to_device;  // written by the host
  notify::FlagArrayView to_host;    // written by this program
  std::uint64_t epochs = 0;
  notify::WaitControl control;
  // Per epoch, the device clock when wait_flag returned (just before answering);
  // null for the plain round trip, which takes no time stamps.
  std::uint64_t* seen_at_ns = nullptr;
  std::uint64_t* outcome = nullptr;  // a notify::WaitOutcome: ready when every epoch was answered
};

HF_HD inline void answer_epochs(const ResponderPlan& plan) {
  auto outcome = notify::WaitOutcome::ready;
  for (std::uint64_t epoch = 1; epoch <= plan.epochs; ++epoch) {
    outcome = notify::wait_flag(plan.to_device, 0, epoch, plan.control, notify::Side::device, 0);
    if (outcome != notify::WaitOutcome::ready) break;
    if (plan.seen_at_ns == nullptr) {
      notify::signal_flag(plan.to_host, 0, epoch);
      continue;
    }
    const std::uint64_t seen = notify::clock_ns();
    notify::signal_flag(plan.to_host, 0, epoch);
    plan.seen_at_ns[epoch - 1] = seen;  // after the signal, so the stamp's store does not delay it
  }
  *plan.outcome = static_cast<std::uint64_t>(outcome);
}

// The paper's Table 1 for one side: one read of a flag the other side writes, followed by one
// write of a flag this side writes, with the library's operations (poll_flag, signal_flag).
// The write depends on what the read returned, as a notification's does: it is not issued
// before the read has returned.
struct ReadWritePlan {
  notify::FlagArrayView read_flags;  // written by the other side, holding `expected`
  std::uint64_t expected = 0;
  notify::FlagArrayView write_flags;  // written by this side
  std::uint64_t first_epoch = 1;      // written values count up from here (epochs never fall)
  std::uint32_t samples = 0;
  std::uint32_t ops_per_sample = 0;
  std::uint64_t* window_ns = nullptr;    // per sample: clock_ns() time of ops_per_sample pairs
  std::uint64_t* stale_reads = nullptr;  // reads that did not see `expected` (0 unless broken)
};

HF_HD inline void time_read_write(const ReadWritePlan& plan) {
  std::uint64_t epoch = plan.first_epoch;
  std::uint64_t stale = 0;
  for (std::uint32_t sample = 0; sample < plan.samples; ++sample) {
    const std::uint64_t start = notify::clock_ns();
    for (std::uint32_t op = 0; op < plan.ops_per_sample; ++op, ++epoch) {
      if (notify::poll_flag(plan.read_flags, 0, plan.expected)) {
        notify::signal_flag(plan.write_flags, 0, epoch);
      } else {
        ++stale;
      }
    }
    plan.window_ns[sample] = notify::clock_ns() - start;
  }
  *plan.stale_reads = stale;
}

// The smallest step of this side's clock_ns() seen over `steps` changes: the resolution the
// device clock's samples carry. 0 when the clock did not move within a bounded number of reads.
struct ClockStepPlan {
  std::uint32_t steps = 0;
  std::uint64_t* smallest_step_ns = nullptr;
};

HF_HD inline void measure_clock_step(const ClockStepPlan& plan) {
  constexpr std::uint32_t kMostReadsPerStep = 1u << 24;
  std::uint64_t smallest = 0;
  std::uint64_t previous = notify::clock_ns();
  for (std::uint32_t step = 0; step < plan.steps; ++step) {
    std::uint64_t now = previous;
    for (std::uint32_t read = 0; read < kMostReadsPerStep && now == previous; ++read) {
      now = notify::clock_ns();
    }
    if (now == previous) break;
    const std::uint64_t difference = now - previous;
    if (smallest == 0 || difference < smallest) smallest = difference;
    previous = now;
  }
  *plan.smallest_step_ns = smallest;
}

}  // namespace haloflag::bench
