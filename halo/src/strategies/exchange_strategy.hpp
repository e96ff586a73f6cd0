// Internal: what each strategy does at start() and on every progress() call: the order of work
// only (which kernels, when to pack, who waits). The memory, the kernel runner and the
// transports are the Exchange's; a strategy sequences them and names no transport.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exchange_resources.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "message_names.hpp"
#include "timeline_recorder.hpp"
#include "transports/host_transport.hpp"

namespace haloflag::halo::detail {

// What a strategy sequences: the kernels, and the transports' host halves, which it drives
// through HostTransport alone.
struct StrategyContext {
  ExchangeResources& resources;
  kernels::KernelRunner& runner;
  TimelineRecorder& timeline;
  HostTransports& transports;
  const MessageNames& names;
};

// Who starts an exchange's pack work: the strategy at start(), or the caller's stream.
enum class PackStart { by_strategy, by_stream };

class ExchangeStrategy {
 public:
  virtual ~ExchangeStrategy() = default;
  // Posts the receives and starts the pack work of exchange `epoch`, unless the caller's stream
  // starts it (start(stream): the stream stores pack_start itself).
  virtual void start(std::uint64_t epoch, PackStart pack_start) = 0;
  // Advances without blocking; true once every send completed and every message is unpacked.
  virtual bool progress() = 0;
  // Where the strategy's own work stands, for deadline errors (each transport names its own).
  virtual std::string pending() const = 0;
  // Before exchange `epoch`'s start is enqueued on the caller's stream: kernels that left the
  // GPU idle are launched again (resident). True when the kernels on the GPU take the start as
  // they are, so the stream may also store their relays.
  virtual bool bring_back(std::uint64_t epoch) {
    (void)epoch;
    return true;
  }
  // How many times kernels that left the GPU idle were launched again.
  virtual std::uint64_t relaunches() const { return 0; }
  // Ends kernels that outlive an exchange (resident); waits for the lanes to drain.
  virtual void shut_down() noexcept = 0;
  virtual std::string launch_description() const = 0;
};

// The strategies that synchronise at kernel boundaries: comb_fused, comb_graph, stream_base.
std::unique_ptr<ExchangeStrategy> make_bulk_strategy(Strategy strategy, StrategyContext context);
// The flag-driven ones: stream_notify, stacked_notify, resident, embedded.
std::unique_ptr<ExchangeStrategy> make_notify_strategy(Strategy strategy, StrategyContext context);
// nccl: pack in one kernel, the transports' stream-ordered transfers, unpack in one kernel, all
// on the pack lane's stream; every transport must move its messages itself (DeviceWork::none).
std::unique_ptr<ExchangeStrategy> make_nccl_strategy(StrategyContext context);

}  // namespace haloflag::halo::detail
