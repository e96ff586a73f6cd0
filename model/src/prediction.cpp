#include "haloflag/model/prediction.hpp"

#include <algorithm>
#include <set>
#include <string>

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

}  // namespace

ExchangePrediction predict_exchange(const halo::ExchangeConfig& config, const MachineParams& params,
                                    const RankMapping& mapping) {
  check_config(config);
  mapping.check_fits(config.ranks);
  if (params.pack_unpack.empty()) {
    throw ModelError("machine parameters: the pack/unpack table is empty");
  }

  // k' per node: ranks placed there that send at least one message.
  std::vector<RankLocation> locations(config.ranks);
  std::vector<int> senders_on_node;
  for (int rank = 0; rank < config.ranks; ++rank) {
    locations[rank] = mapping.location(rank);
    const auto node = static_cast<std::size_t>(locations[rank].node);
    if (senders_on_node.size() <= node) senders_on_node.resize(node + 1, 0);
    if (!config.rank_messages[rank].sends.empty()) ++senders_on_node[node];
  }

  ExchangePrediction prediction;
  std::set<std::string> notes;
  for (int rank = 0; rank < config.ranks; ++rank) {
    const halo::RankMessages& messages = config.rank_messages[rank];
    RankPrediction result;
    result.rank = rank;
    result.location = locations[rank];

    // K_inter counts only messages leaving the node: an inter-socket message stays on the node
    // (it is timed with the inter-socket set, but is not part of the node's off-node traffic).
    std::vector<MessageClass> classes;
    for (const halo::Message& send : messages.sends) {
      classes.push_back(mapping.classify(rank, send.peer));
      if (classes.back() == MessageClass::inter_node) ++result.counts.k_inter;
    }
    result.counts.k_total = static_cast<int>(messages.sends.size());
    result.counts.k_prime = senders_on_node[static_cast<std::size_t>(result.location.node)];

    for (std::size_t i = 0; i < messages.sends.size(); ++i) {
      const halo::Message& send = messages.sends[i];
      MessagePrediction message;
      message.peer = send.peer;
      message.tag = send.tag;
      message.bytes = send.bytes;
      message.time = message_time(params, classes[i], send.bytes, result.counts);
      if (result.slowest_send < 0 || message.time.seconds > result.t_comm) {
        result.slowest_send = static_cast<int>(i);
        result.t_comm = message.time.seconds;
      }
      result.sends.push_back(message);
    }

    if (!messages.sends.empty()) {
      const auto shortest = std::min_element(
          messages.sends.begin(), messages.sends.end(),
          [](const halo::Message& a, const halo::Message& b) { return a.bytes < b.bytes; });
      result.shortest_send_bytes = shortest->bytes;
      result.sp = params.pack_unpack.pack_time(shortest->bytes);
      note_lookup(notes, "pack", shortest->bytes, result.sp, params.pack_unpack);
    }
    if (!messages.recvs.empty()) {
      const auto longest = std::max_element(
          messages.recvs.begin(), messages.recvs.end(),
          [](const halo::Message& a, const halo::Message& b) { return a.bytes < b.bytes; });
      result.longest_recv_bytes = longest->bytes;
      result.lup = params.pack_unpack.unpack_time(longest->bytes);
      note_lookup(notes, "unpack", longest->bytes, result.lup, params.pack_unpack);
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
