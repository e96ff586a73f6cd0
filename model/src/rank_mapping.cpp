#include "haloflag/model/rank_mapping.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "haloflag/model/errors.hpp"

namespace haloflag::model {

RankMapping RankMapping::consecutive(int ranks_per_node, int ranks_per_socket,
                                     std::optional<int> nodes) {
  const std::string what = "rank mapping (" + std::to_string(ranks_per_node) +
                           " ranks per node, " + std::to_string(ranks_per_socket) +
                           " per socket): ";
  if (ranks_per_node < 1) throw ModelError(what + "ranks per node must be >= 1");
  if (ranks_per_socket < 1) throw ModelError(what + "ranks per socket must be >= 1");
  if (ranks_per_node % ranks_per_socket != 0) {
    throw ModelError(what + "ranks per node must be a multiple of ranks per socket");
  }
  if (nodes && *nodes < 1) {
    throw ModelError(what + "nodes must be >= 1, got " + std::to_string(*nodes));
  }
  RankMapping mapping;
  mapping.placement_ = Placement::consecutive;
  mapping.ranks_per_node_ = ranks_per_node;
  mapping.ranks_per_socket_ = ranks_per_socket;
  mapping.nodes_ = nodes;
  return mapping;
}

RankMapping RankMapping::explicit_locations(std::vector<RankLocation> locations) {
  if (locations.empty()) throw ModelError("rank mapping: the explicit list of locations is empty");
  for (std::size_t rank = 0; rank < locations.size(); ++rank) {
    if (locations[rank].node < 0 || locations[rank].socket < 0) {
      throw ModelError("rank mapping: rank " + std::to_string(rank) + " has node " +
                       std::to_string(locations[rank].node) + ", socket " +
                       std::to_string(locations[rank].socket) + " (both must be >= 0)");
    }
  }
  RankMapping mapping;
  mapping.placement_ = Placement::explicit_list;
  mapping.locations_ = std::move(locations);
  return mapping;
}

void RankMapping::check_fits(int ranks) const {
  if (ranks < 1) throw ModelError("rank mapping: a config needs >= 1 rank, got " + std::to_string(ranks));
  if (placement_ == Placement::explicit_list) {
    if (static_cast<std::size_t>(ranks) != locations_.size()) {
      throw ModelError("the config has " + std::to_string(ranks) +
                       " ranks but the explicit rank mapping lists " +
                       std::to_string(locations_.size()));
    }
    return;
  }
  if (nodes_) {
    const std::int64_t capacity = std::int64_t{*nodes_} * ranks_per_node_;
    if (ranks > capacity) {
      throw ModelError("the config has " + std::to_string(ranks) + " ranks but the mapping holds " +
                       std::to_string(capacity) + " (" + std::to_string(*nodes_) + " nodes x " +
                       std::to_string(ranks_per_node_) + " ranks per node)");
    }
  }
}

RankLocation RankMapping::location(int rank) const {
  if (rank < 0) throw ModelError("rank mapping: rank " + std::to_string(rank) + " is negative");
  if (placement_ == Placement::explicit_list) {
    if (static_cast<std::size_t>(rank) >= locations_.size()) {
      throw ModelError("rank mapping: rank " + std::to_string(rank) +
                       " is not in the explicit list of " + std::to_string(locations_.size()));
    }
    return locations_[rank];
  }
  return {rank / ranks_per_node_, (rank % ranks_per_node_) / ranks_per_socket_};
}

MessageClass RankMapping::classify(int from_rank, int to_rank) const {
  const RankLocation from = location(from_rank);
  const RankLocation to = location(to_rank);
  if (from.node != to.node) return MessageClass::inter_node;
  if (from.socket != to.socket) return MessageClass::inter_socket;
  return MessageClass::intra_socket;
}

std::string RankMapping::describe() const {
  if (placement_ == Placement::explicit_list) {
    return "explicit list of " + std::to_string(locations_.size()) + " rank locations";
  }
  std::string text = "consecutive, " + std::to_string(ranks_per_node_) + " ranks per node, " +
                     std::to_string(ranks_per_socket_) + " per socket";
  if (nodes_) text += ", " + std::to_string(*nodes_) + " nodes";
  return text;
}

}  // namespace haloflag::model
