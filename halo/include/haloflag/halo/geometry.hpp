/// @file
/// A validated 3D block decomposition: which cells each rank owns, its field with ghosts, and the
/// halo messages to and from each neighbour.
///
/// Conventions:
///  * Ranks are numbered x fastest: rank = cx + px * (cy + py * cz).
///  * When an axis of N cells is split p ways, the first N % p ranks along it get one cell more.
///  * A rank's field covers its owned cells plus `ghost` cells on each side; local index 0 is
///    the first ghost cell, owned cells start at local index `ghost`.
///  * One message per neighbour direction. Tags follow direction.hpp: send tag =
///    direction_index(d), receive tag from direction e = direction_index(opposite(e)).
///  * Across a non-periodic boundary there is no neighbour and the ghost cells stay untouched.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "haloflag/halo/direction.hpp"
#include "haloflag/halo/geometry_spec.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/box.hpp"

namespace haloflag::halo {

/// The cells one rank owns, and its local field.
struct Subdomain {
  Index3 offset;        ///< global index of the first owned cell
  Index3 extent;        ///< owned cells per axis
  Index3 field_extent;  ///< extent + 2 * ghost: the local field including ghosts
};

/// The halo traffic between a rank and its neighbour in one direction.
struct Neighbour {
  Direction direction;   ///< where the peer sits, seen from this rank
  int peer = 0;          ///< the peer's rank (may be this rank on a periodic axis of one rank)
  int send_tag = 0;      ///< direction_index(direction)
  int recv_tag = 0;      ///< direction_index(opposite(direction)): the tag the peer sends with
  kernels::Box send_box;  ///< owned cells next to that side, ghost-width thick (local indices)
  kernels::Box recv_box;  ///< ghost cells on that side (local indices)
  std::int64_t bytes = 0;  ///< cells * vars * element_bytes, the same both ways
};

/// A validated decomposition of the domain over ranks, and each rank's neighbours.
class Geometry {
 public:
  /// Validates the spec (throws GeometryError naming the problem) and resolves an empty divide
  /// with auto_divide.
  explicit Geometry(GeometrySpec spec);

  const GeometrySpec& spec() const noexcept { return spec_; }  ///< divide always set
  /// Number of ranks.
  int ranks() const noexcept { return spec_.ranks; }
  /// Ranks per axis.
  const RankGrid& rank_grid() const noexcept { return grid_; }

  /// Coordinates of `rank` in the rank grid.
  RankGrid coords_of(int rank) const;
  /// The rank at `coords` in the rank grid.
  int rank_at(const RankGrid& coords) const;
  /// The cells `rank` owns.
  Subdomain subdomain(int rank) const;

  /// The peer in direction d, with periodic wrap; empty across a non-periodic boundary or when d
  /// is not part of the stencil.
  std::optional<int> peer(int rank, Direction d) const;

  /// Neighbours in direction_index order; directions without a peer are left out.
  std::vector<Neighbour> neighbours(int rank) const;

  /// Global index of a rank's local field index (ghost origin), not wrapped.
  Index3 global_index(int rank, const Index3& local) const;
  /// A global index brought into the domain along periodic axes; empty when it lies outside
  /// along a non-periodic axis.
  std::optional<Index3> wrap(const Index3& global) const;

 private:
  void check_rank(int rank) const;

  GeometrySpec spec_;
  RankGrid grid_{};
};

}  // namespace haloflag::halo
