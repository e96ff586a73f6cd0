// Internal: what each strategy does at start() and on every progress() call. The memory, the
// kernel runner and the MPI requests are the Exchange's; a strategy only sequences them.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exchange_resources.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "timeline_recorder.hpp"
#include "transports/mpi/message_requests.hpp"
#include "transports/nccl/peer_spans.hpp"
#include "transports/node/node_transport.hpp"

namespace haloflag::halo::detail {

struct StrategyContext {
  ExchangeResources& resources;
  kernels::KernelRunner& runner;
  MessageRequests& requests;
  TimelineRecorder& timeline;
  NodeTransport& node;
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
  // Where the GPU side stands, for deadline errors (the MPI side is requests.pending()).
  virtual std::string pending() const = 0;
  // The exchange failed (a deadline, an abort, an error): ends at once whatever would otherwise
  // keep waiting for peers without a deadline of its own (NCCL's transfers). The flag waits need
  // nothing here: they read the abort flag.
  virtual void abandon() noexcept {}
  // Ends kernels that outlive an exchange (resident); waits for the lanes to drain.
  virtual void shut_down() noexcept = 0;
  virtual std::string launch_description() const = 0;
};

// The strategies that synchronise at kernel boundaries: comb_fused, comb_graph, stream_base.
std::unique_ptr<ExchangeStrategy> make_bulk_strategy(Strategy strategy, StrategyContext context);
// The flag-driven ones: stream_notify, stacked_notify, resident, embedded. Receives of at least
// `on_arrival_from_bytes` are posted when their message has arrived (0: all at start()).
std::unique_ptr<ExchangeStrategy> make_notify_strategy(Strategy strategy, StrategyContext context,
                                                       std::int64_t on_arrival_from_bytes);
// nccl: collective over `comm` (it creates the NCCL communicator, every wait within `timeout`).
// `spans` are where arrange_by_peer put each peer's messages. Throws ExchangeError in builds
// without NCCL (strategy_unavailable() says so first).
std::unique_ptr<ExchangeStrategy> make_nccl_strategy(StrategyContext context, MPI_Comm comm,
                                                     PeerSpans spans,
                                                     std::chrono::nanoseconds timeout);

}  // namespace haloflag::halo::detail
