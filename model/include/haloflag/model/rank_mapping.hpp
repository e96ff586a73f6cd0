/// @file
/// Where each MPI rank runs: which node and which socket of that node. The model needs it to
/// classify messages (intra-socket, inter-socket, inter-node) and to count K_inter and k'.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/message_class.hpp"

namespace haloflag::model {

/// Where one rank runs: its node and socket.
struct RankLocation {
  int node = 0;  ///< node index
  int socket = 0;  ///< socket index within the node

  /// Equal in every field.
  bool operator==(const RankLocation&) const = default;
};

/// Where every rank runs: a consecutive placement or an explicit list of locations.
class RankMapping {
 public:
  /// How the mapping was given.
  enum class Placement { consecutive, explicit_list };

  /// Ranks fill a node before the next one (rank r on node r / ranks_per_node), and within a
  /// node fill a socket before the next (socket (r % ranks_per_node) / ranks_per_socket). This is
  /// what `mpirun --map-by core` gives (Open MPI maps by socket by default above two ranks,
  /// which alternates sockets: describe such a run with an explicit list).
  /// Throws ModelError when a count is < 1, ranks_per_node is not a multiple of
  /// ranks_per_socket, or nodes (when given) is < 1.
  static RankMapping consecutive(int ranks_per_node, int ranks_per_socket,
                                 std::optional<int> nodes = std::nullopt);
  /// One location per rank, index = rank. Throws ModelError for an empty list or a negative node
  /// or socket (naming the rank).
  static RankMapping explicit_locations(std::vector<RankLocation> locations);

  /// Throws ModelError, naming the rank count and what the mapping holds, when `ranks` ranks do
  /// not fit: more than nodes * ranks_per_node (when nodes is given), or a rank count different
  /// from the explicit list's length.
  void check_fits(int ranks) const;

  /// Rank must be >= 0 (and inside an explicit list); throws ModelError otherwise.
  RankLocation location(int rank) const;
  /// The class of a message from `from_rank` to `to_rank`.
  MessageClass classify(int from_rank, int to_rank) const;

  /// How the mapping was given.
  Placement placement() const noexcept { return placement_; }
  int ranks_per_node() const noexcept { return ranks_per_node_; }      ///< consecutive only
  int ranks_per_socket() const noexcept { return ranks_per_socket_; }  ///< consecutive only
  std::optional<int> nodes() const noexcept { return nodes_; }         ///< consecutive only
  /// One location per rank (explicit list only).
  const std::vector<RankLocation>& locations() const noexcept { return locations_; }

  /// One line for reports, e.g. "consecutive, 4 ranks per node, 2 per socket".
  std::string describe() const;

  /// Equal in every field.
  bool operator==(const RankMapping&) const = default;

 private:
  Placement placement_ = Placement::consecutive;
  int ranks_per_node_ = 1;
  int ranks_per_socket_ = 1;
  std::optional<int> nodes_;
  std::vector<RankLocation> locations_;
};

}  // namespace haloflag::model
