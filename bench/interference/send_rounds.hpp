// One case, both sides. Every round:
//
//   sender (rank 0)                              receiver (rank 1)
//   start the GPU's writes (kernel scenarios)    post MPI_Irecv of the buffer
//   wait for the receiver's ready message   <──  send a ready message (0 bytes)
//   SSB: wait until the kernel has ended
//   PSB/PCB/P2AB: wait for the ready flag
//   t0; MPI_Send(send buffer); t1           ──►  wait for the data
//   PSB/PCB/P2AB: store the stop flag, wait
//   until the kernel has ended
//
// so the timed MPI_Send always finds its receive posted, and t1 - t0 is the send alone. The first
// `warmup` rounds are not timed; the receiver checks the data of the last of them (the first
// timed round when there are none) against the pattern the sender's buffer held, and reports
// the check to the sender when the case ends. Every wait has the run's deadline. Epochs count
// rounds over the whole run, the same on both ranks, and never repeat.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>

#include "case_result.hpp"
#include "copy_traffic.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/mapped_allocation.hpp"
#include "memory_accessor.hpp"
#include "scenario.hpp"
#include "send_buffers.hpp"

namespace haloflag::bench::interference {

inline constexpr int kSenderRank = 0;
inline constexpr int kReceiverRank = 1;

struct RoundSettings {
  MPI_Comm comm = MPI_COMM_WORLD;
  std::chrono::nanoseconds timeout{};
  int warmup = 0;
  int iterations = 1;
  std::uint64_t stop_poll_ns = 0;
};

// What the sender owns for the whole run.
struct SenderSide {
  SenderSide(notify::Backend backend, std::chrono::nanoseconds timeout, std::size_t max_bytes,
             std::size_t gap_bytes);

  notify::ControlBlock control;
  notify::FlagArray ready;  // device-written: the send buffer holds the round's pattern
  notify::FlagArray stop;   // host-written: MPI_Send of the round returned
  notify::MappedAllocation words_written;  // the program's report of target words written
  SenderBuffers buffers;
  MemoryAccessor* accessor = nullptr;  // kernel scenarios
  CopyTraffic* copies = nullptr;       // the copies scenario
};

// Rank 0's part of a case; `epoch` is the last epoch used and is advanced per round.
CaseResult run_sender_case(const RoundSettings& settings, SenderSide& side, const CaseKey& key,
                           std::uint64_t& epoch);
// Rank 1's part; `receive` holds at least key.bytes.
void run_receiver_case(const RoundSettings& settings, const notify::MappedAllocation& receive,
                       const CaseKey& key, std::uint64_t& epoch);

}  // namespace haloflag::bench::interference
