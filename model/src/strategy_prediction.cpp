#include "haloflag/model/strategy_prediction.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "haloflag/model/errors.hpp"
#include "haloflag/model/message_time.hpp"
#include "haloflag/model/prediction.hpp"
#include "mpi_piece_sizes.hpp"

namespace haloflag::model {

namespace {

using halo::Strategy;

// A rank's messages split by the path they take.
struct PathMessages {
  std::vector<const halo::Message*> sends;
  std::vector<const halo::Message*> recvs;

  bool empty() const { return sends.empty() && recvs.empty(); }
};

std::int64_t total_bytes(const std::vector<const halo::Message*>& messages) {
  std::int64_t bytes = 0;
  for (const halo::Message* m : messages) bytes += m->bytes;
  return bytes;
}

std::int64_t largest_bytes(const std::vector<const halo::Message*>& messages) {
  std::int64_t bytes = 0;
  for (const halo::Message* m : messages) bytes = std::max(bytes, m->bytes);
  return bytes;
}

// The terms the phases are built from, for one rank on a GPU shared by `sharers` ranks.
class Terms {
 public:
  Terms(const MachineParams& params, int sharers)
      : params_(params), schedule_(*params.schedule), sharers_(sharers) {}

  // A fused kernel without its launch and synchronisation (the fixed cost holds those): the
  // measured latency beyond an empty launch, and the bytes of every rank sharing the GPU.
  double fused(const FusedKernelTime& kernel, std::int64_t bytes) const {
    const double beyond_launch = std::max(0.0, kernel.latency - schedule_.launch_sync);
    return beyond_launch + sharers_ * static_cast<double>(bytes) / kernel.bandwidth;
  }

  // One block per message: the slowest message's block, or the link every sharer's bytes cross.
  double blocks(double slowest_block, const FusedKernelTime& link, std::int64_t bytes) const {
    return std::max(slowest_block, sharers_ * static_cast<double>(bytes) / link.bandwidth);
  }

  double pack_block(std::int64_t bytes) const {
    return bytes == 0 ? 0.0 : params_.pack_unpack.pack_slowest_time(bytes).seconds;
  }
  double unpack_block(std::int64_t bytes) const {
    return bytes == 0 ? 0.0 : params_.pack_unpack.unpack_slowest_time(bytes).seconds;
  }

  // A node send's pack writes the peer's device memory: the gather of the slowest shape, or the
  // device copy, whichever is longer.
  double node_pack_block(std::int64_t bytes) const {
    if (bytes == 0) return 0.0;
    return std::max(pack_block(bytes),
                    node_copy_time(*params_.node_transport, static_cast<double>(bytes)));
  }
  double node_flag() const { return params_.node_transport->flag_latency; }

  // The node grid's pieces of `bytes` (the rank's busier direction), with its measured term;
  // empty when the file has none for the strategy.
  std::optional<double> node_grid(Strategy strategy, std::int64_t bytes) const {
    const auto found = schedule_.node_grid.find(std::string(halo::to_string(strategy)));
    if (found == schedule_.node_grid.end()) return std::nullopt;
    return sharers_ * static_cast<double>(bytes) / found->second;
  }

  const FusedKernelTimes& fused_times() const { return schedule_.fused; }

 private:
  const MachineParams& params_;
  const ScheduleParams& schedule_;
  int sharers_;
};

// The MPI phase of one rank. Within a node every byte a rank sends or receives is copied by its
// one progress thread, one message after another: the schedule's copy term for all those bytes,
// or without one the messages' postal times added up, their latencies overlapping (the largest
// is paid once). Between nodes the transfers run side by side, each timed by the K-model. The
// phase is the longer of the two.
double mpi_phase(const MachineParams& params, const RankMapping& mapping, int rank,
                 const PathMessages& mpi, const ContentionCounts& counts) {
  double copied = 0.0;
  double largest_alpha = 0.0;
  double network = 0.0;
  std::int64_t copied_bytes = 0;
  const auto add = [&](const halo::Message* m) {
    const MessageClass message_class = mapping.classify(rank, m->peer);
    const MessageTime time = message_time(params, message_class, m->bytes, counts);
    if (message_class == MessageClass::inter_node) {
      network = std::max(network, time.seconds);
      return;
    }
    copied_bytes += m->bytes;
    const Protocol protocol = protocol_for(m->bytes, params.eager_threshold_bytes);
    const double alpha = message_class == MessageClass::intra_socket
                             ? params.intra_socket.for_protocol(protocol).alpha
                             : params.inter_socket.for_protocol(protocol).alpha;
    copied += time.seconds - alpha;
    largest_alpha = std::max(largest_alpha, alpha);
  };
  for (const halo::Message* m : mpi.sends) add(m);
  for (const halo::Message* m : mpi.recvs) {
    if (mapping.classify(rank, m->peer) != MessageClass::inter_node) add(m);
  }
  if (params.schedule->mpi_copy && copied_bytes > 0) {
    const PostalParams& copy = *params.schedule->mpi_copy;
    return std::max(copy.alpha + copy.beta * static_cast<double>(copied_bytes), network);
  }
  return std::max(copied + largest_alpha, network);
}

// The data phases of one path (everything but the fixed cost), in order. `pieces`: the flag
// strategies' pieces over MPI, when the exchange cuts messages.
std::vector<PhaseTime> mpi_path_phases(Strategy strategy, const Terms& terms,
                                       const PathMessages& mpi, double mpi_seconds,
                                       const std::optional<detail::MpiPieceSizes>& pieces) {
  const FusedKernelTimes& fused = terms.fused_times();
  const std::int64_t sent = total_bytes(mpi.sends);
  const std::int64_t received = total_bytes(mpi.recvs);
  if (strategy == Strategy::comb_fused || strategy == Strategy::comb_graph) {
    return {{"pack", terms.fused(fused.pack_pinned, sent)},
            {"mpi", mpi_seconds},
            {"unpack", terms.fused(fused.unpack_pinned, received)}};
  }
  // One block per message (stream_base, the flag strategies; stacked_notify's grid packs long
  // messages faster, but over MPI the link bounds them all the same).
  PhaseTime pack{"pack",
                 terms.blocks(terms.pack_block(largest_bytes(mpi.sends)), fused.pack_pinned, sent)};
  PhaseTime unpack{"unpack", terms.blocks(terms.unpack_block(largest_bytes(mpi.recvs)),
                                          fused.unpack_pinned, received)};
  // In pieces the messages are a pipeline: MPI copies a piece while the GPU packs the next and
  // unpacks the one before, so only the first piece's pack and the last piece's unpack stay
  // outside the MPI phase (the pieces of all messages overlap alike: the longest decides).
  if (pieces && pieces->sends_cut) {
    pack = {"pack (first piece)", terms.pack_block(pieces->longest_first_send)};
  }
  if (pieces && pieces->recvs_cut) {
    unpack = {"unpack (last piece)", terms.unpack_block(pieces->longest_last_recv)};
  }
  return {pack, {"mpi", mpi_seconds}, unpack};
}

// The flag strategies over node: the node grid cuts every node message into pieces and moves
// them all at once, each straight into the receiver's memory, counted there by one counter per
// peer. So the rank's busier direction (bytes sent or received) bounds it, not a message.
std::vector<PhaseTime> node_grid_phases(Strategy strategy, const Terms& terms,
                                        const PathMessages& node, std::set<std::string>& notes) {
  const std::int64_t bytes = std::max(total_bytes(node.sends), total_bytes(node.recvs));
  if (const auto measured = terms.node_grid(strategy, bytes)) return {{"pieces", *measured}};
  notes.insert("node grid of " + std::string(halo::to_string(strategy)) +
               ": not measured, composed from the device pack and the flag latency");
  return {{"pieces", terms.fused(terms.fused_times().pack_device, bytes)},
          {"counter", terms.node_flag()}};
}

std::vector<PhaseTime> node_path_phases(Strategy strategy, const Terms& terms,
                                        const PathMessages& node, std::set<std::string>& notes) {
  const FusedKernelTimes& fused = terms.fused_times();
  const std::int64_t sent = total_bytes(node.sends);
  const std::int64_t received = total_bytes(node.recvs);
  switch (strategy) {
    case Strategy::comb_fused:
    case Strategy::comb_graph:
      return {{"pack", terms.fused(fused.pack_device, sent)},
              {"unpack", terms.fused(fused.unpack_device, received)}};
    case Strategy::stream_base:
      return {{"pack", terms.blocks(terms.node_pack_block(largest_bytes(node.sends)),
                                    fused.pack_device, sent)},
              {"unpack", terms.blocks(terms.unpack_block(largest_bytes(node.recvs)),
                                      fused.unpack_device, received)}};
    default: return node_grid_phases(strategy, terms, node, notes);
  }
}

double sum(const std::vector<PhaseTime>& phases) {
  double seconds = 0.0;
  for (const PhaseTime& phase : phases) seconds += phase.seconds;
  return seconds;
}

// Fixed cost composed from the launch and flag terms, for files without a measured one: the
// launches and synchronisations a strategy's exchange waits for, and the flag crossings between
// host and GPU on its critical path.
double composed_fixed(Strategy strategy, const ScheduleParams& schedule) {
  const double launch = schedule.launch_sync;
  const double flag = schedule.host_flag;
  switch (strategy) {
    case Strategy::comb_fused:
    case Strategy::stream_base: return 2 * launch;
    case Strategy::comb_graph: return 2 * schedule.graph_launch_sync;
    case Strategy::stream_notify:
    case Strategy::stacked_notify: return launch + 3 * flag;
    case Strategy::resident: return 4 * flag;
    case Strategy::embedded:
    case Strategy::nccl: break;
  }
  return 0.0;
}

}  // namespace

StrategyPrediction predict_strategy(const halo::ExchangeConfig& config,
                                    const MachineParams& params, const RankMapping& mapping,
                                    halo::Strategy strategy, TransportChoice transport,
                                    int ranks_per_gpu, std::int64_t mpi_piece_bytes) {
  if (!params.schedule) {
    throw ModelError("machine parameters: schedule: missing (the prediction's terms; "
                     "scripts/calibrate_machine.sh measures them)");
  }
  if (const std::string unmodelled = unmodelled_reason(strategy); !unmodelled.empty()) {
    throw ModelError(unmodelled);
  }
  if (ranks_per_gpu < 1) {
    throw ModelError("ranks per GPU must be >= 1 (got " + std::to_string(ranks_per_gpu) + ")");
  }
  if (mpi_piece_bytes < 0) {
    throw ModelError("MPI piece bytes must be >= 0, 0 for whole messages (got " +
                     std::to_string(mpi_piece_bytes) + ")");
  }
  const std::vector<ContentionCounts> counts = contention_counts(config, mapping);
  if (params.pack_unpack.empty()) {
    throw ModelError("machine parameters: the pack/unpack table is empty");
  }
  const ScheduleParams& schedule = *params.schedule;

  StrategyPrediction prediction;
  prediction.strategy = strategy;
  prediction.ranks_per_gpu = ranks_per_gpu;
  // Only the flag strategies cut messages; the bulk strategies send theirs whole.
  const bool in_pieces = mpi_piece_bytes > 0 && halo::uses_flags(strategy);
  prediction.mpi_piece_bytes = in_pieces ? mpi_piece_bytes : 0;
  prediction.node_transport_used =
      node_transport_applies(transport, params.node_transport.has_value());
  const Terms terms(params, ranks_per_gpu);
  const auto found = schedule.fixed.find(std::string(halo::to_string(strategy)));
  const FixedCost* measured = found == schedule.fixed.end() ? nullptr : &found->second;
  std::set<std::string> notes;

  for (int rank = 0; rank < config.ranks; ++rank) {
    const halo::RankMessages& messages = config.rank_messages[rank];
    PathMessages mpi;
    PathMessages node;
    const auto on_node = [&](int peer) {
      if (peer < 0 || peer >= config.ranks) {
        throw ModelError("config: rank " + std::to_string(rank) + " exchanges with peer " +
                         std::to_string(peer) + ", outside 0.." + std::to_string(config.ranks - 1));
      }
      return prediction.node_transport_used &&
             mapping.location(rank).node == mapping.location(peer).node;
    };
    for (const halo::Message& send : messages.sends) {
      (on_node(send.peer) ? node : mpi).sends.push_back(&send);
    }
    for (const halo::Message& recv : messages.recvs) {
      (on_node(recv.peer) ? node : mpi).recvs.push_back(&recv);
    }

    // The fixed cost of the transport the rank's messages take (the larger one when both).
    double fixed = 0.0;
    bool fixed_measured = true;
    for (const bool node_path : {false, true}) {
      if ((node_path ? node : mpi).empty()) continue;
      const double value = measured == nullptr ? -1.0 : (node_path ? measured->node : measured->mpi);
      if (value >= 0.0) {
        fixed = std::max(fixed, value);
      } else {
        fixed_measured = false;
        fixed = std::max(fixed, composed_fixed(strategy, schedule));
        notes.insert(std::string("fixed cost of ") + std::string(halo::to_string(strategy)) +
                     " over " + (node_path ? "node" : "mpi") +
                     ": not measured, composed from the launch and flag terms");
      }
    }

    std::vector<PhaseTime> path_phases;
    if (!mpi.empty()) {
      const double mpi_seconds =
          mpi_phase(params, mapping, rank, mpi, counts[static_cast<std::size_t>(rank)]);
      std::optional<detail::MpiPieceSizes> pieces;
      if (in_pieces) {
        pieces = detail::mpi_piece_sizes(mpi.sends, mpi.recvs, config.data, mpi_piece_bytes);
        if (pieces->long_uncut > 0) {
          notes.insert("pieces over mpi of " + std::to_string(mpi_piece_bytes) +
                       " B: messages longer than a piece that cannot be cut (not one box, or "
                       "the config has no data line) are charged whole");
        }
      }
      path_phases = mpi_path_phases(strategy, terms, mpi, mpi_seconds, pieces);
    }
    if (!node.empty()) {
      std::vector<PhaseTime> node_phases = node_path_phases(strategy, terms, node, notes);
      // Both paths run side by side: the longer one is the rank's.
      if (path_phases.empty() || sum(node_phases) > sum(path_phases)) {
        for (PhaseTime& phase : node_phases) phase.name = "node " + phase.name;
        path_phases = std::move(node_phases);
      }
    }

    std::vector<PhaseTime> phases{{"fixed", fixed}};
    phases.insert(phases.end(), path_phases.begin(), path_phases.end());
    const double seconds = sum(phases);
    if (rank == 0 || seconds > prediction.seconds) {
      prediction.seconds = seconds;
      prediction.critical_rank = rank;
      prediction.fixed_seconds = fixed;
      prediction.fixed_measured = fixed_measured;
      prediction.phases = std::move(phases);
    }
  }
  prediction.notes.assign(notes.begin(), notes.end());
  return prediction;
}

}  // namespace haloflag::model
