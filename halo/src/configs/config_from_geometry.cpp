#include "haloflag/halo/config_from_geometry.hpp"

#include <string>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/reduced_peers.hpp"

namespace haloflag::halo {

namespace {

GeometryRecord record_of(const Geometry& geometry) {
  const GeometrySpec& spec = geometry.spec();
  GeometryRecord record;
  record.global_size = spec.global_size;
  record.divide = geometry.rank_grid();
  record.periodic = spec.periodic;
  record.ghost = spec.ghost;
  record.stencil = spec.stencil;
  return record;
}

MessageData data_of(const Geometry& geometry) {
  return MessageData{geometry.spec().vars, geometry.spec().element_bytes,
                     geometry.spec().variable_bytes};
}

}  // namespace

RankMessages rank_messages(const Geometry& geometry, int rank) {
  RankMessages messages;
  messages.field_extent = geometry.subdomain(rank).field_extent;
  for (const Neighbour& n : geometry.neighbours(rank)) {
    messages.sends.push_back(Message{n.peer, n.send_tag, n.bytes, {n.send_box}});
    messages.recvs.push_back(Message{n.peer, n.recv_tag, n.bytes, {n.recv_box}});
  }
  return messages;
}

ExchangeConfig make_exchange_config(const Geometry& geometry) {
  ExchangeConfig config;
  config.ranks = geometry.ranks();
  config.data = data_of(geometry);
  config.geometry = record_of(geometry);
  config.rank_messages.reserve(static_cast<std::size_t>(geometry.ranks()));
  for (int rank = 0; rank < geometry.ranks(); ++rank) {
    config.rank_messages.push_back(rank_messages(geometry, rank));
  }
  return config;
}

ExchangeConfig make_reduced_config(const Geometry& geometry, int source_rank, int ranks) {
  const std::string what = "cannot reduce to " + std::to_string(ranks) + " ranks: ";
  if (!is_reduced_rank_count(ranks)) {
    throw GeometryError(what + "a reduced config has 2, 4 or 8 ranks");
  }
  if (source_rank < 0 || source_rank >= geometry.ranks()) {
    throw GeometryError(what + "source rank " + std::to_string(source_rank) +
                        " is out of range [0, " + std::to_string(geometry.ranks()) + ")");
  }
  const std::vector<Neighbour> neighbours = geometry.neighbours(source_rank);
  const std::size_t expected = stencil_directions(geometry.spec().stencil).size();
  if (neighbours.size() != expected) {
    throw GeometryError(what + "source rank " + std::to_string(source_rank) + " has " +
                        std::to_string(neighbours.size()) + " of " + std::to_string(expected) +
                        " neighbours (it lies on a non-periodic boundary); pick an interior rank");
  }

  const RankMessages source = rank_messages(geometry, source_rank);
  ExchangeConfig config;
  config.ranks = ranks;
  config.data = data_of(geometry);
  config.geometry = record_of(geometry);
  config.geometry->reduced_from_rank = source_rank;
  config.geometry->reduced_ranks = ranks;
  for (int rank = 0; rank < ranks; ++rank) {
    RankMessages messages = source;
    // rank_messages lists one send and one receive per neighbour, in neighbour order.
    for (std::size_t i = 0; i < neighbours.size(); ++i) {
      const int peer = reduced_peer(rank, ranks, neighbours[i].direction);
      messages.sends[i].peer = peer;
      messages.recvs[i].peer = peer;
    }
    config.rank_messages.push_back(std::move(messages));
  }
  return config;
}

ExchangeConfig make_two_rank_config(const Geometry& geometry, int source_rank) {
  return make_reduced_config(geometry, source_rank, 2);
}

GeometrySpec geometry_spec_of(const ExchangeConfig& config) {
  if (!config.geometry || !config.data) {
    throw ConfigError("the config has no geometry or data record, so its geometry is unknown");
  }
  const GeometryRecord& record = *config.geometry;
  GeometrySpec spec;
  spec.global_size = record.global_size;
  spec.divide = record.divide;
  spec.ranks = record.divide[0] * record.divide[1] * record.divide[2];
  spec.periodic = record.periodic;
  spec.ghost = record.ghost;
  spec.vars = config.data->vars;
  spec.element_bytes = config.data->element_bytes;
  spec.variable_bytes = config.data->variable_bytes;
  spec.stencil = record.stencil;
  return spec;
}

}  // namespace haloflag::halo
