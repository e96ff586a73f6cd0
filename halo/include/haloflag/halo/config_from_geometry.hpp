/// @file
/// Building communication configs from a Geometry, and the geometry back from a config's record.
#pragma once

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/geometry_spec.hpp"

namespace haloflag::halo {

/// One rank's sends and receives, one per neighbour, in direction_index order, with boxes.
RankMessages rank_messages(const Geometry& geometry, int rank);

/// Every rank's messages plus the data and geometry records.
ExchangeConfig make_exchange_config(const Geometry& geometry);

/// The paper's down-scaled runs (Fig. 14), and their weak-scaling siblings: the message pattern
/// of `source_rank` replayed by `ranks` ranks (2, 4 or 8). Every rank gets source_rank's field
/// shape; for each direction d of source_rank's neighbours, rank r sends send_box(d) with tag
/// direction_index(d) to reduced_peer(r, ranks, d) and receives recv_box(d) with tag
/// direction_index(opposite(d)) from the same peer, so sizes and tags are those of the full run
/// and every message can be packed and unpacked.
///
/// What it verifies: rank r's ghost cells on side d receive the owned cells next to side -d of
/// the peer reduced_peer(r, ranks, d). Each rank sees its peers as its neighbours in a periodic
/// domain the size of one subdomain: the ghost cell at local index L on side d holds that peer's
/// owned cell at ((L - ghost) mod extent) + ghost on every axis.
///
/// Throws GeometryError when `ranks` is not 2, 4 or 8, when source_rank is out of range, or when
/// it lacks a neighbour in some stencil direction (then a receive would have no matching send);
/// pick an interior rank.
ExchangeConfig make_reduced_config(const Geometry& geometry, int source_rank, int ranks);

/// make_reduced_config on two ranks: each rank's only peer is the other.
ExchangeConfig make_two_rank_config(const Geometry& geometry, int source_rank);

/// The spec the config's geometry record describes (for a reduced config: the full geometry it
/// was reduced from). Throws ConfigError when the config has no geometry or data record.
GeometrySpec geometry_spec_of(const ExchangeConfig& config);

}  // namespace haloflag::halo
