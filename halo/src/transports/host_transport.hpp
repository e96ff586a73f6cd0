// Internal: the host half of a transport (docs/design.md, "Transports and strategies"). An
// Exchange holds one for each transport its peers use; a strategy sequences them through this
// interface alone and never names which transport it drives. The device half is the route the
// transport's set-up put into the kernels' plan (persistent_kernels' kernels/transports/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace haloflag::halo::detail {

// Which kernels move a transport's messages on the GPU, so that a strategy knows what to start.
enum class DeviceWork {
  message_blocks,  // a block per message packs it and signals the CPU through a flag (mpi)
  piece_grid,      // a grid moves pieces from GPU to GPU with no CPU step (node)
  none,            // the transport moves the packed buffers itself, in stream order (nccl)
};

class HostTransport {
 public:
  virtual ~HostTransport() = default;

  virtual std::string_view name() const = 0;
  virtual DeviceWork device_work() const = 0;
  // Whether it carries the Exchange's send `m` and receive `r`.
  virtual bool carries_send(std::size_t m) const = 0;
  virtual bool carries_recv(std::size_t r) const = 0;

  // Exchange `epoch` begins: a transport that must ask for its receives (MPI) does so here. The
  // flag strategies call it once the pack work has started, the bulk ones before it starts.
  virtual void start(std::uint64_t epoch) = 0;
  // What exchange `epoch` still waits for here, a "\n  ..." line per item, for deadline errors.
  virtual std::string pending(std::uint64_t epoch) const = 0;
  // The exchange failed: ends at once whatever would wait without a deadline of its own.
  virtual void abandon() noexcept {}

  // Flag strategies, whose kernels signal each message: one step of the CPU's side that never
  // blocks. True once every message it carries is sent, received and unpacked.
  virtual bool progress(std::uint64_t epoch) = 0;

  // Bulk strategies, whose CPU runs between one pack kernel and one unpack kernel:
  // the pack kernel may write into the receivers' memory (they unpacked the previous exchange);
  virtual bool receivers_ready(std::uint64_t epoch) const = 0;
  // the pack kernel finished: hand every packed message on;
  virtual void send_packed(std::uint64_t epoch) = 0;
  // every message sent and every one received, so the unpack kernel may start;
  virtual bool delivered(std::uint64_t epoch) = 0;
  // (stream-ordered transports, DeviceWork::none: the unpack kernel is on the stream behind the
  // transfers, the last of the exchange's work there; a traced transport marks the stream here)
  virtual void stream_work_enqueued(std::uint64_t) {}
  // the unpack kernel finished.
  virtual void unpacked(std::uint64_t epoch) = 0;
};

// The transports of one Exchange, in the order they were set up.
using HostTransports = std::vector<std::unique_ptr<HostTransport>>;

// Whether any of them runs `work` on the GPU.
inline bool any_runs(const HostTransports& transports, DeviceWork work) {
  for (const auto& transport : transports) {
    if (transport->device_work() == work) return true;
  }
  return false;
}

}  // namespace haloflag::halo::detail
