// The Exchange's collective set-up (exchange_setup.hpp): every step runs on every rank and every
// rank agrees on its outcome before the next, so that no rank waits for a peer that will never
// exchange. What only the set-up needs (the node's ranks, the MPI peers, the resolved piece
// transfer, the nccl spans) lives in ExchangeSetUp and goes when the set-up ends.
#include "exchange/exchange_setup.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "field_set_check.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/peer_spans.hpp"
#include "haloflag/halo/strategy.hpp"
#include "transports/mpi/message_requests.hpp"
#include "transports/mpi/mpi_host_transport.hpp"
#include "peer_handshake.hpp"
#include "transports/nccl/nccl_host_transport.hpp"
#include "transports/node/node_host_transport.hpp"
#include "transports/self/self_transport.hpp"

namespace haloflag::halo::detail {

namespace {

MPI_Comm duplicate(MPI_Comm comm) {
  MPI_Comm copy = MPI_COMM_NULL;
  if (MPI_Comm_dup(comm, &copy) != MPI_SUCCESS) throw ExchangeError(ErrorKind::mpi, "MPI_Comm_dup failed");
  // Errors come back as codes, so they can be reported with the message they concern.
  MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
  return copy;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
  }
}

// The progress thread calls MPI while the caller's thread may call it too.
void check_thread_level(const ExchangeOptions& options) {
  if (options.progress != Progress::thread) return;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    throw ConfigError(std::string("progress = thread needs MPI initialised with "
                                  "MPI_THREAD_MULTIPLE (MPI_Init_thread): its progress thread "
                                  "calls MPI while the caller's thread may too; this MPI was "
                                  "initialised with ") +
                      thread_level_name(provided));
  }
}

// The strategy and transport can run here; ConfigError naming why not. The nccl strategy moves
// every message through the nccl transport, which has no device route for the other strategies'
// kernels. Checked on every rank before anything else is set up, so every rank refuses alike.
void check_strategy(const ExchangeOptions& options) {
  if (options.transport == Transport::self) {
    throw ConfigError("transport self is not a choice: the Exchange takes it for a rank's "
                      "messages to itself. Use transport auto, mpi, node or nccl");
  }
  if (options.transport == Transport::nccl && options.strategy != Strategy::nccl) {
    throw ConfigError("strategy " + std::string(to_string(options.strategy)) +
                      " needs a device route to every peer (its kernels place and signal each "
                      "message); transport nccl has none: its transfers are NCCL's own, "
                      "stream-ordered. Use strategy nccl, or transport auto, mpi or node");
  }
  const std::string unavailable = strategy_unavailable(options.strategy, options.backend);
  if (!unavailable.empty()) throw ConfigError(unavailable);
  if (options.strategy == Strategy::nccl && options.transport == Transport::node) {
    throw ConfigError("the nccl strategy moves every message through NCCL: transport node does "
                      "not apply (auto, mpi or nccl)");
  }
}

// The window after which resident kernels leave the GPU idle: at least a microsecond (a shorter
// one would have them leave between back-to-back exchanges), or never.
void check_idle_exit(const ExchangeOptions& options) {
  if (options.idle_exit >= std::chrono::microseconds(1)) return;
  throw ConfigError("ExchangeOptions::idle_exit must be at least 1 microsecond, or kIdleExitNever "
                    "to keep resident kernels on the GPU (got " +
                    std::to_string(options.idle_exit.count()) + " ns)");
}

// The transport of every peer is NCCL (Strategy::nccl).
bool all_over_nccl(const ExchangeOptions& options) {
  return options.strategy == Strategy::nccl || options.transport == Transport::nccl;
}

// The options the node transport's set-up sees: under nccl no peer is the node transport's.
ExchangeOptions node_transport_options(const ExchangeOptions& options) {
  ExchangeOptions node = options;
  if (all_over_nccl(options)) node.transport = Transport::mpi;
  return node;
}

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

// The set-up's steps, run in order by run(); each fills some of `parts`.
class ExchangeSetUp {
 public:
  ExchangeSetUp(ExchangeParts& parts, const ExchangeConfig& config)
      : parts_(parts), config_(config) {}

  void run(const kernels::FieldSet& fields) {
    // Which peers MPI carries decides which messages go in pieces, before anything is sized.
    agree_on("find the ranks of its node", [&] {
      node_ranks_ = ranks_on_node(parts_.comm, parts_.options.backend != notify::Backend::host,
                                  parts_.options.timeout);
    });
    // Peers must cut alike: pieces as many times larger as any rank's GPU needs. (Piece sizes
    // asked differently stay different: the handshake names them.)
    std::int64_t growth = 1;
    agree_on("size its MPI pieces", [&] { growth = piece_growth_to_fit(); });
    MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_INT64_T, MPI_MAX, parts_.comm);
    parts_.piece_bytes = requested_piece_bytes(parts_.options) * growth;
    agree_on("set up the exchange", [&] { set_up(fields); });
    // Every rank is set up, so every peer answers; a disagreement fails every rank before the
    // first exchange, each side of it naming the messages.
    agree_on("agree with its peers on the messages", [&] {
      const RankMessages& configured = configured_messages();
      const MessageNames config_names(configured, config_.geometry.has_value());
      check_peers_agree(parts_.comm, configured, config_names, parts_.options.timeout, peer_cuts(),
                        piece_transfer_);
    });
    // Collective over the node: every rank reaches it, since set-up and handshake agreed.
    agree_on("set up the node transport", [&] {
      parts_.node = std::make_unique<NodeTransport>(parts_.comm, parts_.messages,
                                                    parts_.resources->layouts,
                                                    parts_.resources->plan.fields,
                                                    node_transport_options(parts_.options),
                                                    parts_.resources->control, *parts_.names);
      parts_.node->throw_if_unusable();
    });
    agree_on("set up the self transport", [&] { route_pieces(); });
    agree_on("start its kernels", [&] { start_strategy(); });
  }

 private:
  // This rank's messages as the config gives them, whole.
  const RankMessages& configured_messages() const {
    return config_.rank_messages.at(static_cast<std::size_t>(parts_.rank));
  }

  // Runs `step` on every rank and agrees on the outcome: set-up succeeds everywhere or every
  // rank throws (a failing rank its own error, the others naming it), so no rank waits for a
  // peer that will never exchange. Every rank's error has the kind of the named rank's.
  template <class Step>
  void agree_on(const char* what, Step step) {
    std::string failure;
    ErrorKind kind = ErrorKind::other;
    try {
      step();
    } catch (const std::exception& error) {
      failure = error.what();
      kind = kind_of(error);
    }
    // (rank, kind) of the highest failed rank: MPI_MAXLOC on (rank, kind) pairs.
    struct RankKind {
      int rank;
      int kind;
    } mine{failure.empty() ? -1 : parts_.rank, static_cast<int>(kind)}, failed{-1, 0};
    MPI_Allreduce(&mine, &failed, 1, MPI_2INT, MPI_MAXLOC, parts_.comm);
    if (failed.rank >= 0) {
      // No exchange has started: nothing is unfinished.
      parts_.release(false);
      if (!failure.empty()) {
        throw ExchangeError(kind, "rank " + std::to_string(parts_.rank) + ": " + failure);
      }
      throw ExchangeError(static_cast<ErrorKind>(failed.kind),
                          "rank " + std::to_string(parts_.rank) + ": rank " +
                              std::to_string(failed.rank) + " failed to " + what +
                              " (its error names the cause)");
    }
  }

  void set_up(const kernels::FieldSet& fields) {
    ExchangeOptions& options = parts_.options;
    const int rank = parts_.rank;
    check_strategy(options);
    check_thread_level(options);
    check_idle_exit(options);
    int size = 0;
    MPI_Comm_size(parts_.comm, &size);
    if (config_.ranks != size) {
      throw ConfigError("the config is for " + std::to_string(config_.ranks) +
                        " ranks, the communicator has " + std::to_string(size));
    }
    const RankMessages& configured = configured_messages();
    const std::int64_t piece_bytes = config_.data ? parts_.piece_bytes : 0;
    if (piece_bytes > 0) piece_transfer_ = resolve_piece_transfer(options.advanced.piece_transfer);
    // Long or short by the config's messages: a piece is short, packed and unpacked by a block
    // of its own as soon as it can be.
    options.advanced.long_message_bytes = long_message_bytes(configured);
    mpi_peers_ = peers_over_mpi(configured, options, node_ranks_.ranks);
    parts_.pieced = cut_into_pieces(configured, config_.data.value_or(MessageData{}), piece_bytes,
                                    mpi_peers_, size, tag_upper_bound(parts_.comm));
    parts_.messages = parts_.pieced.messages;
    parts_.names.emplace(parts_.pieced.messages, parts_.pieced.sends, parts_.pieced.recvs,
                         config_.geometry.has_value());
    parts_.timeline.emplace(parts_.messages, options.trace);
    // Device stamps are put on the host's time line; the offset is measured once.
    if (options.trace && options.backend != notify::Backend::host) {
      parts_.clock_offset = notify::measure_device_clock_offset(options.backend);
    }
    // The layouts of what moves: the pieces where messages were cut.
    ExchangeConfig moved = config_;
    moved.rank_messages[static_cast<std::size_t>(rank)] = parts_.messages;
    MessageLayouts layouts = make_message_layouts(moved, rank);
    // NCCL moves one span per peer: the peer's messages lie together (peer_spans.hpp).
    if (all_over_nccl(options)) peer_spans_ = arrange_by_peer(parts_.messages, layouts);
    parts_.field_extent = configured.field_extent.value_or(Index3{0, 0, 0});
    const kernels::FieldSet checked =
        checked_field_set(fields, layouts, parts_.field_extent, "rank " + std::to_string(rank));
    parts_.resources = std::make_unique<ExchangeResources>(std::move(layouts), checked, options);
  }

  // The transports whose routes move pieces (node, self) point the plan at their route tables and
  // join the piece grid; the per-message blocks move the rest. The self transport is the first
  // host half: the plan must be complete before the kernel runner copies it.
  void route_pieces() {
    ExchangeResources& resources = *parts_.resources;
    const NodeTransport& node = *parts_.node;
    if (node.any()) {
      resources.plan.routes.node = node.route_table();
      resources.add_to_piece_grid(node.send_pieces(), node.recv_pieces());
    }
    if (!all_over_nccl(parts_.options) && self_transport_carries_self(parts_.options)) {
      auto self = std::make_unique<SelfTransport>(parts_.rank, parts_.messages, parts_.options,
                                                  resources, *parts_.timeline, *parts_.names);
      if (self->any()) {
        self_ = self.get();
        resources.plan.routes.self = self->route_table();
        resources.add_to_piece_grid(self->pieces(), 0);
        parts_.transports.push_back(std::move(self));
      }
    }
    sends_in_pieces_.assign(parts_.messages.sends.size(), false);
    recvs_in_pieces_.assign(parts_.messages.recvs.size(), false);
    for (std::size_t m = 0; m < sends_in_pieces_.size(); ++m) {
      sends_in_pieces_[m] = node.node_send(m) || (self_ != nullptr && self_->carries_send(m));
    }
    for (std::size_t r = 0; r < recvs_in_pieces_.size(); ++r) {
      recvs_in_pieces_[r] = node.node_recv(r) || (self_ != nullptr && self_->carries_recv(r));
    }
    resources.count_message_blocks(sends_in_pieces_, recvs_in_pieces_);
  }

  // Once the plan is complete (piece routes included): the kernel runner copies it, and
  // resident kernels start here.
  void start_strategy() {
    const ExchangeOptions& options = parts_.options;
    parts_.runner = kernels::make_kernel_runner(options.backend, parts_.resources->plan,
                                                options.advanced.launch,
                                                parts_.node->gpu_sharers());
    parts_.peers = parts_.node->peers();
    if (self_ != nullptr) parts_.peers.push_back(self_->description());
    describe_mpi_pieces();
    if (all_over_nccl(options)) {
      add_nccl_transport();
    } else {
      add_device_route_transports();
    }
    const StrategyContext context{*parts_.resources, *parts_.runner, *parts_.timeline,
                                  parts_.transports, *parts_.names};
    if (all_over_nccl(options)) {
      parts_.strategy = make_nccl_strategy(context);
    } else if (uses_flags(options.strategy)) {
      parts_.strategy = make_notify_strategy(options.strategy, context);
    } else {
      parts_.strategy = make_bulk_strategy(options.strategy, context);
    }
  }

  // Every peer over NCCL: one transport for all of them, and every peer described so.
  void add_nccl_transport() {
    parts_.peers.clear();
    for (const int peer : peers_of(peer_spans_)) {
      parts_.peers.push_back({peer, Transport::nccl, "NCCL"});
    }
    parts_.transports.push_back(make_nccl_transport(
        parts_.comm, peer_spans_, parts_.options.timeout, *parts_.resources, *parts_.timeline,
        parts_.runner->gpu_stream(kernels::Lane::pack)));
  }

  // The transports with device routes, each where it carries a message: self (made with the
  // piece routes), node, then mpi for whatever the piece grid does not carry.
  void add_device_route_transports() {
    const ExchangeOptions& options = parts_.options;
    const RankMessages& messages = parts_.messages;
    NodeTransport& node = *parts_.node;
    ExchangeResources& resources = *parts_.resources;
    if (node.any()) {
      parts_.transports.push_back(std::make_unique<NodeHostTransport>(
          node, resources, *parts_.timeline, *parts_.names, messages.sends.size(),
          messages.recvs.size()));
    }
    // MPI carries what the piece grid does not: the messages of the per-message blocks.
    if (!resources.plan.message_blocks) return;
    auto requests = std::make_unique<MessageRequests>(
        parts_.comm, parts_.pieced.wire, resources.layouts, resources.send_buffer_host(),
        resources.recv_buffer_host(), *parts_.names, sends_in_pieces_, recvs_in_pieces_,
        options.advanced.persistent_requests, &parts_.pieced,
        piece_transfer_ == PieceTransfer::partitioned);
    MpiWorkOrder order;
    if (uses_flags(options.strategy)) {
      order.on_arrival_from_bytes = options.advanced.long_receives_on_arrival
                                        ? resources.plan.long_message_bytes
                                        : 0;
      order.receives_between_sends =
          resources.plan.long_sends_in_turn && options.strategy != Strategy::embedded;
    }
    parts_.transports.push_back(std::make_unique<MpiHostTransport>(std::move(requests), resources,
                                                                   *parts_.timeline, order));
  }

  // AdvancedOptions::long_message_bytes, or half the largest of `messages`.
  std::int64_t long_message_bytes(const RankMessages& messages) const {
    const std::int64_t asked = parts_.options.advanced.long_message_bytes;
    if (asked > 0) return asked;
    std::int64_t largest = 0;
    for (const auto* list : {&messages.sends, &messages.recvs}) {
      for (const Message& m : *list) largest = std::max(largest, m.bytes);
    }
    return std::max<std::int64_t>(largest / 2, 1);
  }

  // The stream kernels give every message a pack or unpack block of its own, and all of them
  // must be resident at once: on a GPU, by how much the piece size asked for must grow (1, 2,
  // 4, ...) for the blocks of what moves to fit this rank's share of it (past the largest
  // message: whole).
  std::int64_t piece_growth_to_fit() const {
    const ExchangeOptions& options = parts_.options;
    const std::int64_t asked = requested_piece_bytes(options);
    const bool stream_kernels =
        options.strategy == Strategy::stream_notify || options.strategy == Strategy::resident;
    if (!stream_kernels || options.backend == notify::Backend::host || !config_.data ||
        asked == 0) {
      return 1;
    }
    const RankMessages& configured = configured_messages();
    const kernels::LaunchSettings& launch = options.advanced.launch;
    const std::int64_t capacity =
        kernels::message_block_capacity(options.backend, options.strategy == Strategy::resident,
                                        launch, node_ranks_.gpu_sharers);
    const std::int64_t long_bytes = long_message_bytes(configured);
    const int send_team = runs_helper_blocks(options) ? launch.long_send_blocks : 1;
    const int recv_team = effective_long_receive_blocks(options);
    const std::set<int> peers = peers_over_mpi(configured, options, node_ranks_.ranks);
    std::int64_t growth = 1;
    for (; asked * growth < 2 * long_bytes; growth *= 2) {
      const PiecedMessages cut =
          cut_into_pieces(configured, *config_.data, asked * growth, peers, config_.ranks,
                          std::numeric_limits<int>::max());
      if (stream_kernel_blocks(cut.messages, long_bytes, send_team, recv_team) <= capacity) {
        break;
      }
    }
    return growth;
  }

  // For the handshake: how this rank moves its messages with each rank of the communicator.
  std::vector<PeerCut> peer_cuts() const {
    const PiecedMessages& pieced = parts_.pieced;
    std::vector<PeerCut> cuts(pieced.piece_bytes_by_peer.size());
    for (const int peer : mpi_peers_) {
      if (peer < 0 || static_cast<std::size_t>(peer) >= cuts.size()) continue;
      cuts[static_cast<std::size_t>(peer)].over_mpi = true;
      cuts[static_cast<std::size_t>(peer)].piece_bytes =
          pieced.piece_bytes_by_peer[static_cast<std::size_t>(peer)];
    }
    const auto count = [&](const std::vector<Message>& moved,
                           const std::vector<WireOrigin>& origins) {
      for (std::size_t m = 0; m < moved.size(); ++m) {
        const auto peer = static_cast<std::size_t>(moved[m].peer);
        if (origins[m].pieces > 1 && peer < cuts.size()) ++cuts[peer].cut;
      }
    };
    count(pieced.messages.sends, pieced.sends);
    count(pieced.messages.recvs, pieced.recvs);
    return cuts;
  }

  // What the peers' paths say: for an MPI peer with cut messages, the pieces and how they travel
  // ("mpi, pieces of <= 16384 B (partitioned)").
  void describe_mpi_pieces() {
    const RankMessages& messages = parts_.messages;
    const PiecedMessages& pieced = parts_.pieced;
    const std::int64_t asked = parts_.options.advanced.mpi_piece_bytes;
    for (PeerTransport& peer : parts_.peers) {
      if (peer.transport != Transport::mpi) continue;
      bool cut = false;
      for (std::size_t m = 0; m < messages.sends.size(); ++m) {
        cut = cut || (messages.sends[m].peer == peer.peer && pieced.sends[m].pieces > 1);
      }
      for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
        cut = cut || (messages.recvs[r].peer == peer.peer && pieced.recvs[r].pieces > 1);
      }
      if (!cut) continue;
      peer.path += ", pieces of <= " + std::to_string(parts_.piece_bytes) + " B";
      if (parts_.piece_bytes != asked) {
        peer.path += " (" + std::to_string(asked) +
                     " asked: smaller ones take more GPU blocks than can be resident)";
      }
      peer.path += piece_transfer_ == PieceTransfer::partitioned ? ", partitioned"
                                                                 : ", point to point";
    }
  }

  ExchangeParts& parts_;
  const ExchangeConfig& config_;
  NodeRanks node_ranks_;  // the ranks of the communicator on this rank's node, its GPU's sharers
  const SelfTransport* self_ = nullptr;  // in parts_.transports, where the rank sends itself
  // route_pieces: the messages the piece grid's transports (node, self) carry.
  std::vector<bool> sends_in_pieces_;
  std::vector<bool> recvs_in_pieces_;
  std::set<int> mpi_peers_;  // the peers MPI carries
  PieceTransfer piece_transfer_ = PieceTransfer::point_to_point;  // resolved
  PeerSpans peer_spans_;  // nccl: each peer's span of the buffers
};

}  // namespace

ExchangeParts::ExchangeParts(const ExchangeConfig& config, const kernels::FieldSet& fields,
                             const ExchangeOptions& given)
    : options(given), comm(duplicate(given.comm)) {
  MPI_Comm_rank(comm, &rank);
  ExchangeSetUp(*this, config).run(fields);
}

void ExchangeParts::release(bool unfinished) noexcept {
  if (resources && unfinished) resources->control.raise_abort();
  if (strategy) strategy->shut_down();
  // The transports go before the kernel runner and the memory: MPI's requests are cancelled
  // and freed, NCCL's communicator is flushed or aborted.
  strategy.reset();
  transports.clear();
  runner.reset();
  // Every kernel of this rank has stopped: its mappings of the peers' memory can close, and
  // this rank's memory is freed once the node's other ranks have closed theirs.
  node.reset();
  resources.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  // An exchange that did not finish may have left sends that nobody received. Its
  // communicator is kept, so that MPI never gives its context to a later communicator whose
  // receives would match those leftovers: MPICH reuses a freed context for the next
  // MPI_Comm_dup, and a later Exchange would then take an old exchange's data for its own.
  const bool leftovers_possible = unfinished;
  if (!finalized && comm != MPI_COMM_NULL && !leftovers_possible) MPI_Comm_free(&comm);
}

}  // namespace haloflag::halo::detail
