/// @file
/// One traced exchange, message by message (ExchangeOptions::trace): what the CPU state machine
/// saw and did, and, for the flag strategies, when the device's blocks packed and unpacked. Times
/// are nanoseconds after the exchange's start() on the host clock (notify::clock_ns, the steady
/// clock); device times are converted with a measured clock offset (accurate to
/// clock_uncertainty_ns). kNotRecorded marks a time that this strategy does not have.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace haloflag::halo {

/// Marks a time that was not recorded.
inline constexpr std::int64_t kNotRecorded = std::numeric_limits<std::int64_t>::min();

/// When one send went through each step (ns after start(); kNotRecorded when not recorded).
struct SendTimeline {
  int peer = 0;  ///< receiving rank
  int tag = 0;  ///< MPI tag
  std::int64_t bytes = 0;  ///< size in bytes
  std::int64_t pack_begin = kNotRecorded;  ///< device: the block started packing
  std::int64_t packed = kNotRecorded;      ///< device: just before send_ready was signalled
  std::int64_t ready_seen = kNotRecorded;  ///< host: send_ready seen (bulk: pack kernel done)
  std::int64_t posted = kNotRecorded;      ///< host: MPI_Isend returned
};

/// When one receive went through each step (ns after start(); kNotRecorded when not recorded).
struct RecvTimeline {
  int peer = 0;  ///< sending rank
  int tag = 0;  ///< MPI tag
  std::int64_t bytes = 0;  ///< size in bytes
  std::int64_t received = kNotRecorded;    ///< host: the receive seen complete (unpack_ready set)
  std::int64_t ready_seen = kNotRecorded;  ///< device: the block saw unpack_ready
  std::int64_t unpacked = kNotRecorded;    ///< device: just before unpack_done was signalled
  std::int64_t done_seen = kNotRecorded;   ///< host: unpack_done seen (bulk: unpack kernel done)
};

/// A call of the CPU state machine into MPI that took at least kMpiCallTraceFromNs or completed
/// something. Open MPI's shared-memory transport moves received data inside these calls, so they
/// show where the CPU's time between two flags went; the many quick empty polls are left out.
enum class MpiCall : std::uint8_t {
  test_receives,         ///< MPI_Testsome on the receives
  post_arrived_receive,  ///< MPI_Iprobe over the receives posted on arrival, MPI_Irecv of one
  test_sends,            ///< MPI_Testsome on the sends
};

/// The call's name.
const char* to_string(MpiCall call);

/// MPI calls at least this long (ns) are traced even when they complete nothing.
inline constexpr std::int64_t kMpiCallTraceFromNs = 1000;

/// One traced MPI call of the CPU state machine.
struct MpiCallTimeline {
  MpiCall call = MpiCall::test_receives;  ///< which call
  std::int64_t begin = 0;  ///< ns after start() when it began
  std::int64_t end = 0;  ///< ns after start() when it returned
  int completed = 0;  ///< requests completed (receives posted, for post_arrived_receive)
};

/// Strategy::nccl, whose whole exchange is one stream: when the host put each step on the stream
/// and saw the stream done (ns after start()), and how long the GPU spent on each step, from
/// events recorded on the stream between them (ns; kNotRecorded where not measured). The GPU
/// spans include the gap before each step starts on the GPU, so pack + transfers + unpack is the
/// stream's busy time and duration_ns minus it is what the host added around the GPU's work.
struct StreamTimeline {
  std::int64_t pack_launched = kNotRecorded;       ///< host: the pack kernel launched
  std::int64_t transfers_enqueued = kNotRecorded;  ///< host: the NCCL group enqueued
  std::int64_t unpack_launched = kNotRecorded;     ///< host: the unpack kernel launched
  std::int64_t done_seen = kNotRecorded;           ///< host: the stream seen done
  std::int64_t gpu_pack_ns = kNotRecorded;         ///< GPU: from the stream's start to the pack's end
  std::int64_t gpu_transfers_ns = kNotRecorded;    ///< GPU: the pack's end to the transfers' end
  std::int64_t gpu_unpack_ns = kNotRecorded;       ///< GPU: the transfers' end to the unpack's end
};

/// The trace of one exchange on one rank (ExchangeOptions::trace).
struct ExchangeTimeline {
  std::uint64_t epoch = 0;  ///< the exchange's number
  std::int64_t start_ns = 0;     ///< host clock at start(), absolute
  std::int64_t started = kNotRecorded;  ///< start() returned: receives posted, work launched
  std::int64_t duration_ns = 0;  ///< start() to the progress() that found the exchange done
  bool has_device_times = false;  ///< whether the blocks stamped device times
  std::int64_t clock_uncertainty_ns = 0;  ///< uncertainty of the device-to-host clock offset
  std::vector<SendTimeline> sends;  ///< one per send, in config order
  std::vector<RecvTimeline> recvs;  ///< one per receive, in config order
  std::vector<MpiCallTimeline> mpi_calls;  ///< flag strategies, in call order
  StreamTimeline stream;  ///< Strategy::nccl's steps on its stream; all kNotRecorded otherwise
};

/// The phases of one exchange on one rank (ns after start(); kNotRecorded when there is no
/// message of that kind): when start() returned, when the first and the last send_ready were seen, the last send was
/// posted, the last receive completed and the last unpack was seen done. post_per_send is not a
/// time after start() but the CPU's cost of one send: the mean, over the MPI sends, of the time
/// from when a send could be posted (its send_ready seen, or the previous send posted, whichever
/// came later) to when it was; with MPI pieces, the cost of a piece.
struct ExchangePhases {
  std::int64_t started = kNotRecorded;  ///< start() returned
  std::int64_t first_send_ready = kNotRecorded;  ///< first send_ready seen
  std::int64_t last_send_ready = kNotRecorded;  ///< last send_ready seen
  std::int64_t last_send_posted = kNotRecorded;  ///< last send posted
  std::int64_t last_receive = kNotRecorded;  ///< last receive completed
  std::int64_t last_unpack_done = kNotRecorded;  ///< last unpack seen done
  std::int64_t post_per_send = kNotRecorded;  ///< CPU cost of one send (see above)
  std::int64_t total = 0;  ///< the exchange's duration
};

/// The phases of `timeline`.
ExchangePhases phases_of(const ExchangeTimeline& timeline);

}  // namespace haloflag::halo
