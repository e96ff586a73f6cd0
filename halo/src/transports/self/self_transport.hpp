// Internal: the self transport (docs/transports.md, "self"): a rank's messages to itself, as on
// a periodic axis of one rank. At set-up it pairs each send to the rank with the receive of the
// same tag, cuts the sends into the piece grid's pieces and uploads the device half
// (kernels::SelfPlan). During exchanges its messages take no flag and no MPI call: the GPU
// copies the cells straight into the ghost cells (the bulk strategies' kernels through a buffer
// of the rank's own, as every message of theirs), the CPU learns they are done from the piece
// grid's pieces_done (flag strategies) or from the end of the unpack kernel (bulk strategies),
// and since a rank's own exchanges follow each other there is no flow control either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exchange_resources.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/transports/self/self_route.hpp"
#include "message_names.hpp"
#include "timeline_recorder.hpp"
#include "transports/host_transport.hpp"
#include "transports/piece_grid_watch.hpp"

namespace haloflag::halo::detail {

// Whether the self transport carries a rank's messages to itself, with these options as the
// node transport sees them: every transport but mpi (which then carries them as any peer's).
bool self_transport_carries_self(const ExchangeOptions& options);

class SelfTransport final : public HostTransport {
 public:
  // Carries the messages of `messages` whose peer is `rank`. Throws ConfigError naming the tag
  // when a send to itself has no receive of the same tag and size, or a receive no such send.
  SelfTransport(int rank, const RankMessages& messages, const ExchangeOptions& options,
                ExchangeResources& resources, TimelineRecorder& timeline,
                const MessageNames& names);

  bool any() const { return !grid_.sends().empty(); }
  // The device half's route table, in device memory; null when the rank sends itself nothing.
  const kernels::SelfPlan* route_table() const { return route_table_; }
  // Its pieces per epoch: its share of the piece grid's work (all of them sends).
  std::uint32_t pieces() const { return plan_.piece_count; }
  // How this rank's messages to itself move, for Exchange::peers().
  PeerTransport description() const;

  std::string_view name() const override { return "self"; }
  DeviceWork device_work() const override { return DeviceWork::piece_grid; }
  bool carries_send(std::size_t m) const override { return recv_of_send_[m] != kernels::kNotSelf; }
  bool carries_recv(std::size_t r) const override { return send_of_recv_[r] != kernels::kNotSelf; }

  void start(std::uint64_t) override { grid_.start(); }
  std::string pending(std::uint64_t epoch) const override;

  bool progress(std::uint64_t epoch) override;

  // Bulk strategies: the rank's own pack kernel fills the buffers its unpack kernel reads.
  bool receivers_ready(std::uint64_t) const override { return true; }
  void send_packed(std::uint64_t epoch) override;
  bool delivered(std::uint64_t) override { return true; }
  void unpacked(std::uint64_t) override {}

 private:
  void pair_messages(int rank, const RankMessages& messages);
  void upload(const ExchangeOptions& options);

  ExchangeResources& resources_;
  TimelineRecorder& timeline_;
  const MessageNames& names_;
  std::vector<std::uint32_t> recv_of_send_;  // [sends]: the receive it fills, or kNotSelf
  std::vector<std::uint32_t> send_of_recv_;  // [recvs]: the send filling it, or kNotSelf
  int rank_ = 0;
  bool on_gpu_ = false;
  PieceGridWatch grid_;  // the self sends and receives by index, and pieces_done
  kernels::DeviceMemory memory_;  // the route table and everything it points to
  kernels::SelfPlan plan_;        // host copy of the table
  const kernels::SelfPlan* route_table_ = nullptr;
};

}  // namespace haloflag::halo::detail
