#include "haloflag/model/prediction.hpp"

#include <set>
#include <string>
#include <vector>

#include "haloflag/model/errors.hpp"

namespace haloflag::model {

namespace {

void check_config(const halo::ExchangeConfig& config) {
  if (config.ranks < 1 || config.rank_messages.size() != static_cast<std::size_t>(config.ranks)) {
    throw ModelError("config: declares " + std::to_string(config.ranks) + " ranks but holds " +
                     std::to_string(config.rank_messages.size()) + " rank sections");
  }
  for (int rank = 0; rank < config.ranks; ++rank) {
    for (const halo::Message& send : config.rank_messages[rank].sends) {
      if (send.peer < 0 || send.peer >= config.ranks) {
        throw ModelError("config: rank " + std::to_string(rank) + " sends to peer " +
                         std::to_string(send.peer) + " (tag " + std::to_string(send.tag) +
                         "), outside 0.." + std::to_string(config.ranks - 1));
      }
    }
  }
}

// Notes about sizes read outside the pack/unpack table, once per (column, size).
void note_lookup(std::set<std::string>& notes, const char* column, std::int64_t bytes,
                 const TableLookup& lookup, const PackUnpackTable& table) {
  if (lookup.range == TableRange::below_clamped) {
    notes.insert(std::string(column) + " time of " + std::to_string(bytes) +
                 " B: below the table's smallest size (" +
                 std::to_string(table.points().front().bytes) + " B), clamped to its time");
  } else if (lookup.range == TableRange::above_extrapolated) {
    notes.insert(std::string(column) + " time of " + std::to_string(bytes) +
                 " B: above the table's largest size (" +
                 std::to_string(table.points().back().bytes) +
                 " B), extrapolated from the last two sizes");
  }
}

// Whether messages within a node take the node transport, per the choice and the file's terms.
bool use_node_transport(TransportChoice transport, const MachineParams& params,
                        std::set<std::string>& notes) {
  if (transport == TransportChoice::automatic && !params.node_transport) {
    notes.insert("transport auto: the parameter file has no node_transport, so every message "
                 "is timed on the MPI path");
  }
  return node_transport_applies(transport, params.node_transport.has_value());
}

// The longest message of a list (the first of equal ones), or null for none.
const halo::Message* longest(const std::vector<const halo::Message*>& messages) {
  const halo::Message* found = nullptr;
  for (const halo::Message* m : messages) {
    if (found == nullptr || m->bytes > found->bytes) found = m;
  }
  return found;
}

}  // namespace

std::vector<ContentionCounts> contention_counts(const halo::ExchangeConfig& config,
                                                const RankMapping& mapping) {
  check_config(config);
  mapping.check_fits(config.ranks);
  // k' per node: ranks placed there that send at least one message.
  std::vector<int> senders_on_node;
  for (int rank = 0; rank < config.ranks; ++rank) {
    const auto node = static_cast<std::size_t>(mapping.location(rank).node);
    if (senders_on_node.size() <= node) senders_on_node.resize(node + 1, 0);
    if (!config.rank_messages[rank].sends.empty()) ++senders_on_node[node];
  }
  // K_inter counts only messages leaving the node: an inter-socket message stays on the node
  // (it is timed with the inter-socket set, but is not part of the node's off-node traffic).
  // The counts do not depend on the transport: it changes how messages within a node travel,
  // not which ones leave it.
  std::vector<ContentionCounts> counts(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    ContentionCounts& c = counts[static_cast<std::size_t>(rank)];
    for (const halo::Message& send : config.rank_messages[rank].sends) {
      if (mapping.classify(rank, send.peer) == MessageClass::inter_node) ++c.k_inter;
    }
    c.k_total = static_cast<int>(config.rank_messages[rank].sends.size());
    c.k_prime = senders_on_node[static_cast<std::size_t>(mapping.location(rank).node)];
  }
  return counts;
}

ExchangePrediction predict_exchange(const halo::ExchangeConfig& config, const MachineParams& params,
                                    const RankMapping& mapping, TransportChoice transport) {
  const std::vector<ContentionCounts> counts = contention_counts(config, mapping);
  if (params.pack_unpack.empty()) {
    throw ModelError("machine parameters: the pack/unpack table is empty");
  }
  std::vector<RankLocation> locations(config.ranks);
  for (int rank = 0; rank < config.ranks; ++rank) locations[rank] = mapping.location(rank);

  ExchangePrediction prediction;
  std::set<std::string> notes;
  prediction.transport = transport;
  prediction.node_transport_used = use_node_transport(transport, params, notes);
  const auto on_node_path = [&](int rank, int peer) {
    return prediction.node_transport_used && locations[rank].node == locations[peer].node;
  };

  for (int rank = 0; rank < config.ranks; ++rank) {
    const halo::RankMessages& messages = config.rank_messages[rank];
    RankPrediction result;
    result.rank = rank;
    result.location = locations[rank];

    result.counts = counts[static_cast<std::size_t>(rank)];
    std::vector<MessageClass> classes;
    for (const halo::Message& send : messages.sends) {
      classes.push_back(mapping.classify(rank, send.peer));
    }

    // Sends: the slowest of each path, and the shortest MPI send (SP packs it).
    int slowest_mpi = -1;
    int slowest_node = -1;
    const halo::Message* shortest_mpi = nullptr;
    for (std::size_t i = 0; i < messages.sends.size(); ++i) {
      const halo::Message& send = messages.sends[i];
      MessagePrediction message;
      message.peer = send.peer;
      message.tag = send.tag;
      message.bytes = send.bytes;
      const bool node_path = on_node_path(rank, send.peer);
      message.time = node_path ? node_message_time(*params.node_transport, classes[i], send.bytes)
                               : message_time(params, classes[i], send.bytes, result.counts);
      int& slowest = node_path ? slowest_node : slowest_mpi;
      if (slowest < 0 || message.time.seconds > result.sends[static_cast<std::size_t>(slowest)]
                                                    .time.seconds) {
        slowest = static_cast<int>(i);
      }
      if (!node_path && (shortest_mpi == nullptr || send.bytes < shortest_mpi->bytes)) {
        shortest_mpi = &send;
      }
      result.sends.push_back(message);
    }
    TableLookup sp_mpi;
    if (shortest_mpi != nullptr) sp_mpi = params.pack_unpack.pack_time(shortest_mpi->bytes);
    const auto send_time = [&](int index) {
      return result.sends[static_cast<std::size_t>(index)].time.seconds;
    };
    const double mpi_branch = slowest_mpi < 0 ? 0.0 : sp_mpi.seconds + send_time(slowest_mpi);
    if (slowest_node >= 0 && (slowest_mpi < 0 || send_time(slowest_node) > mpi_branch)) {
      result.slowest_send = slowest_node;
      result.t_comm = send_time(slowest_node);
    } else if (slowest_mpi >= 0) {
      result.slowest_send = slowest_mpi;
      result.t_comm = send_time(slowest_mpi);
      result.shortest_send_bytes = shortest_mpi->bytes;
      result.sp = sp_mpi;
      note_lookup(notes, "pack", shortest_mpi->bytes, result.sp, params.pack_unpack);
    }

    // Receives: the table's unpack of the longest MPI receive, the node copy of the longest node
    // receive (read from this rank's own device memory); LUP is the longer of the two.
    std::vector<const halo::Message*> mpi_recvs;
    std::vector<const halo::Message*> node_recvs;
    for (const halo::Message& recv : messages.recvs) {
      if (prediction.node_transport_used && (recv.peer < 0 || recv.peer >= config.ranks)) {
        throw ModelError("config: rank " + std::to_string(rank) + " receives from peer " +
                         std::to_string(recv.peer) + " (tag " + std::to_string(recv.tag) +
                         "), outside 0.." + std::to_string(config.ranks - 1));
      }
      (on_node_path(rank, recv.peer) ? node_recvs : mpi_recvs).push_back(&recv);
    }
    if (const halo::Message* recv = longest(mpi_recvs)) {
      result.longest_recv_bytes = recv->bytes;
      result.lup = params.pack_unpack.unpack_time(recv->bytes);
    }
    if (const halo::Message* recv = longest(node_recvs)) {
      const double copy = node_copy_time(*params.node_transport, static_cast<double>(recv->bytes));
      if (mpi_recvs.empty() || copy > result.lup.seconds) {
        result.longest_recv_bytes = recv->bytes;
        result.lup_path = MessagePath::node;
        result.lup = TableLookup{copy, TableRange::inside};
      }
    }
    if (result.lup_path == MessagePath::mpi && !mpi_recvs.empty()) {
      note_lookup(notes, "unpack", result.longest_recv_bytes, result.lup, params.pack_unpack);
    }

    result.bound = result.sp.seconds + result.t_comm + result.lup.seconds;
    if (rank == 0 || result.bound > prediction.bound) {
      prediction.bound = result.bound;
      prediction.critical_rank = rank;
    }
    prediction.ranks.push_back(std::move(result));
  }
  prediction.notes.assign(notes.begin(), notes.end());
  return prediction;
}

}  // namespace haloflag::model
