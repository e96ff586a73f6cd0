// Building communication configs from a Geometry, and the geometry back from a config's record.
#pragma once

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/geometry_spec.hpp"

namespace haloflag::halo {

// One rank's sends and receives, one per neighbour, in direction_index order, with boxes.
RankMessages rank_messages(const Geometry& geometry, int rank);

// Every rank's messages plus the data and geometry records.
ExchangeConfig make_exchange_config(const Geometry& geometry);

// The paper's down-scaled runs (Fig. 14): the message pattern of `source_rank` replayed by two
// ranks. Both ranks get source_rank's field shape; for each direction d of source_rank's
// neighbours, rank r sends send_box(d) with tag direction_index(d) to the other rank and
// receives recv_box(d) with tag direction_index(opposite(d)) from it, so sizes and tags are
// those of the full run and every message can be packed and unpacked.
//
// What it verifies: rank r's ghost cells on side d receive the other rank's owned cells next
// to its side -d. So each rank sees the other as its neighbour in every direction of a periodic
// domain the size of one subdomain: the ghost cell at local index L holds the other rank's
// owned cell at ((L - ghost) mod extent) + ghost on every axis.
//
// Throws GeometryError when source_rank is out of range or lacks a neighbour in some stencil
// direction (then a receive would have no matching send); pick an interior rank.
ExchangeConfig make_two_rank_config(const Geometry& geometry, int source_rank);

// The spec the config's geometry record describes (for a two-rank config: the full geometry it
// was reduced from). Throws ConfigError when the config has no geometry or data record.
GeometrySpec geometry_spec_of(const ExchangeConfig& config);

}  // namespace haloflag::halo
