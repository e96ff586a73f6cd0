#include "transports/mpi/mpi_exchange_transport.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "haloflag/halo/mpi_pieces.hpp"
#include "haloflag/halo/strategy.hpp"
#include "options/transport_rules.hpp"
#include "transports/mpi/message_pieces.hpp"
#include "transports/mpi/message_requests.hpp"
#include "transports/mpi/mpi_host_transport.hpp"

namespace haloflag::halo::detail {
namespace {

// This communicator's MPI_TAG_UB.
int tag_upper_bound(MPI_Comm comm) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &found);
  return found && value != nullptr ? *value : 32767;
}

// The peers whose messages MPI carries, of those `messages` name: every one with transport mpi,
// those off this rank's node with auto, none with node or under nccl.
std::set<int> peers_over_mpi(const RankMessages& messages, const ExchangeOptions& options,
                             const std::set<int>& node_ranks) {
  std::set<int> peers;
  if (options.transport == Transport::node || all_over_nccl(options)) return peers;
  for (const auto* list : {&messages.sends, &messages.recvs}) {
    for (const Message& m : *list) {
      if (options.transport == Transport::mpi || !node_ranks.contains(m.peer)) peers.insert(m.peer);
    }
  }
  return peers;
}

// Only the flag strategies' kernels signal piece by piece.
std::int64_t requested_piece_bytes(const ExchangeOptions& options) {
  return uses_flags(options.strategy) ? std::max<std::int64_t>(options.advanced.mpi_piece_bytes, 0) : 0;
}

// The stream kernels give every message a pack or unpack block of its own, and all of them
// must be resident at once: on a GPU, by how much the piece size asked for must grow (1, 2,
// 4, ...) for the blocks of what moves to fit this rank's share of it (past the largest
// message: whole).
std::int64_t piece_growth_to_fit(const TransportSetUp& s) {
  const ExchangeOptions& options = s.options;
  const std::int64_t asked = requested_piece_bytes(options);
  const bool stream_kernels =
      options.strategy == Strategy::stream_notify || options.strategy == Strategy::resident;
  if (!stream_kernels || options.backend == notify::Backend::host || !s.config.data ||
      asked == 0) {
    return 1;
  }
  const kernels::LaunchSettings& launch = options.advanced.launch;
  const std::int64_t capacity =
      kernels::message_block_capacity(options.backend, options.strategy == Strategy::resident,
                                      launch, s.gpu_sharers);
  const std::int64_t long_bytes = options.advanced.long_message_bytes;
  const int send_team = runs_helper_blocks(options) ? launch.long_send_blocks : 1;
  const int recv_team = effective_long_receive_blocks(options);
  const std::set<int> peers = peers_over_mpi(s.configured, options, s.node_ranks);
  std::int64_t growth = 1;
  for (; asked * growth < 2 * long_bytes; growth *= 2) {
    const PiecedMessages cut = cut_into_pieces(s.configured, *s.config.data, asked * growth,
                                               peers, s.config.ranks,
                                               std::numeric_limits<int>::max());
    if (stream_kernel_blocks(cut.messages, long_bytes, send_team, recv_team) <= capacity) break;
  }
  return growth;
}

class MpiExchangeTransport final : public ExchangeTransport {
 public:
  std::string_view name() const override { return "mpi"; }

  // Peers must cut alike: pieces as many times larger as any rank's GPU needs. (Piece sizes
  // asked differently stay different: the handshake names them.)
  void prepare(TransportSetUp& s) override {
    std::int64_t growth = 1;
    s.agree("size its MPI pieces", [&] { growth = piece_growth_to_fit(s); });
    MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_INT64_T, MPI_MAX, s.comm);
    agreed_piece_bytes_ = requested_piece_bytes(s.options) * growth;
    asked_piece_bytes_ = s.options.advanced.mpi_piece_bytes;
  }

  // Which peers MPI carries decides which messages go in pieces.
  void cut(TransportSetUp& s) override {
    const std::int64_t piece_bytes = s.config.data ? agreed_piece_bytes_ : 0;
    if (piece_bytes > 0) transfer_ = resolve_piece_transfer(s.options.advanced.piece_transfer);
    int size = 0;
    MPI_Comm_size(s.comm, &size);
    peers_ = peers_over_mpi(s.configured, s.options, s.node_ranks);
    pieced_ = cut_into_pieces(s.configured, s.config.data.value_or(MessageData{}), piece_bytes,
                              peers_, size, tag_upper_bound(s.comm));
    s.moved = pieced_.messages;
    s.send_origins = pieced_.sends;
    s.recv_origins = pieced_.recvs;
  }

  void add_terms(HandshakeTerms& terms) const override {
    terms.transfer = transfer_;
    terms.cuts.resize(std::max(terms.cuts.size(), pieced_.piece_bytes_by_peer.size()));
    for (const int peer : peers_) {
      if (peer < 0 || static_cast<std::size_t>(peer) >= terms.cuts.size()) continue;
      PeerCut& cut = terms.cuts[static_cast<std::size_t>(peer)];
      cut.over_mpi = true;
      cut.piece_bytes = pieced_.piece_bytes_by_peer[static_cast<std::size_t>(peer)];
    }
    const auto count = [&](const std::vector<Message>& moved,
                           const std::vector<WireOrigin>& origins) {
      for (std::size_t m = 0; m < moved.size(); ++m) {
        const auto peer = static_cast<std::size_t>(moved[m].peer);
        if (origins[m].pieces > 1 && peer < terms.cuts.size()) ++terms.cuts[peer].cut;
      }
    };
    count(pieced_.messages.sends, pieced_.sends);
    count(pieced_.messages.recvs, pieced_.recvs);
  }

  void describe_peers(std::vector<PeerTransport>& peers) const override;
  std::unique_ptr<HostTransport> host_half(TransportSetUp& s) override;

  std::string explain_wait(const notify::WaitFailure& failure) const override {
    if (failure.array_name != "send_buffer_free") return {};
    return ", waiting for this rank's CPU to complete the previous exchange's MPI sends (a "
           "start(stream) with MPI peers needs progress = thread or progress() calls)";
  }

  std::int64_t piece_bytes() const override {
    return pieced_.any_cut() ? agreed_piece_bytes_ : 0;
  }

 private:
  std::int64_t agreed_piece_bytes_ = 0;  // the piece size every rank cuts with (0: whole)
  std::int64_t asked_piece_bytes_ = 0;
  PieceTransfer transfer_ = PieceTransfer::point_to_point;  // resolved
  std::set<int> peers_;   // the peers MPI carries
  PiecedMessages pieced_;  // MessageRequests reads it for as long as it lives
};

// For an MPI peer with cut messages, the pieces and how they travel ("mpi, pieces of <= 16384 B,
// partitioned").
void MpiExchangeTransport::describe_peers(std::vector<PeerTransport>& peers) const {
  const RankMessages& messages = pieced_.messages;
  for (PeerTransport& peer : peers) {
    if (peer.transport != Transport::mpi) continue;
    bool cut = false;
    for (std::size_t m = 0; m < messages.sends.size(); ++m) {
      cut = cut || (messages.sends[m].peer == peer.peer && pieced_.sends[m].pieces > 1);
    }
    for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
      cut = cut || (messages.recvs[r].peer == peer.peer && pieced_.recvs[r].pieces > 1);
    }
    if (!cut) continue;
    peer.path += ", pieces of <= " + std::to_string(agreed_piece_bytes_) + " B";
    if (agreed_piece_bytes_ != asked_piece_bytes_) {
      peer.path += " (" + std::to_string(asked_piece_bytes_) +
                   " asked: smaller ones take more GPU blocks than can be resident)";
    }
    peer.path += transfer_ == PieceTransfer::partitioned ? ", partitioned" : ", point to point";
  }
}

// MPI carries what the piece grid does not: the messages of the per-message blocks.
std::unique_ptr<HostTransport> MpiExchangeTransport::host_half(TransportSetUp& s) {
  ExchangeResources& resources = *s.resources;
  if (all_over_nccl(s.options) || !resources.plan.message_blocks) return nullptr;
  const ExchangeOptions& options = s.options;
  auto requests = std::make_unique<MessageRequests>(
      s.comm, pieced_.wire, resources.layouts, resources.send_buffer_host(),
      resources.recv_buffer_host(), *s.names, s.sends_in_pieces, s.recvs_in_pieces,
      options.advanced.persistent_requests, &pieced_, transfer_ == PieceTransfer::partitioned);
  MpiWorkOrder order;
  if (uses_flags(options.strategy)) {
    order.on_arrival_from_bytes =
        options.advanced.long_receives_on_arrival ? resources.plan.long_message_bytes : 0;
    order.receives_between_sends =
        resources.plan.long_sends_in_turn && options.strategy != Strategy::embedded;
  }
  return std::make_unique<MpiHostTransport>(std::move(requests), resources, *s.timeline, order);
}

}  // namespace

std::unique_ptr<ExchangeTransport> make_mpi_transport(const TransportSetUp&) {
  return std::make_unique<MpiExchangeTransport>();
}

}  // namespace haloflag::halo::detail
