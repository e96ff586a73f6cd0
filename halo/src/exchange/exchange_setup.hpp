// Internal: what one Exchange is made of (its communicator, the messages as they move, the
// memory, its transports and their host halves, the kernel runner and the strategy) and the
// collective set-up that builds them, every rank agreeing on each step. Exchange::Impl owns them and runs
// exchanges with them; release() takes them down in the order that keeps the kernels' memory
// alive until the kernels are gone.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <mpi.h>

#include "exchange_resources.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/notify/device_clock_offset.hpp"
#include "message_names.hpp"
#include "strategies/exchange_strategy.hpp"
#include "timeline_recorder.hpp"
#include "wire_origin.hpp"
#include "transports/exchange_transport.hpp"
#include "transports/host_transport.hpp"

namespace haloflag::halo::detail {

struct ExchangeParts {
  // Collective over given.comm: every rank builds its parts, or every rank throws
  // ExchangeError (a failing rank its own error, the others naming it) with whatever it had
  // built released. A rank's parts point at each other: they are built in place and never move.
  ExchangeParts(const ExchangeConfig& config, const kernels::FieldSet& fields,
                const ExchangeOptions& given);
  ExchangeParts(const ExchangeParts&) = delete;
  ExchangeParts& operator=(const ExchangeParts&) = delete;

  // Stops kernels (abort first if `unfinished`: an exchange may not have completed), drops MPI
  // requests, frees memory in the order that keeps the kernels' memory alive until they are
  // gone, and frees the communicator unless `unfinished`.
  void release(bool unfinished) noexcept;

  ExchangeOptions options;  // as given, with long_message_bytes resolved
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  Index3 field_extent{0, 0, 0};  // the config's, for FieldSets given to start(fields)
  RankMessages messages;  // what moves: the config's, with the pieces where a transport cut them
  std::vector<WireOrigin> send_origins;  // where each of messages.sends comes from (names)
  std::vector<WireOrigin> recv_origins;
  std::vector<PeerTransport> peers;  // how each peer's messages move, as the transports say
  std::optional<MessageNames> names;
  std::optional<TimelineRecorder> timeline;
  notify::DeviceClockOffset clock_offset;
  std::unique_ptr<ExchangeResources> resources;
  // In the registry's order (transports/transport_registry.cpp); they own the memory their
  // device routes point into, so they go after the kernels.
  ExchangeTransports transports;
  std::unique_ptr<kernels::KernelRunner> runner;
  HostTransports host_halves;  // what the strategy drives, each carrying some of the messages
  std::unique_ptr<ExchangeStrategy> strategy;
};

}  // namespace haloflag::halo::detail
