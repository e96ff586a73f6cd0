// The node transport's placement by shape (AdvancedOptions::node_placement) with real MPI ranks:
// each receiver decides which of its node receives come through its buffer although the sender
// could place them into its ghost cells, and tells the sender. Checked at 2, 4 and 8 ranks (and
// with nodes of 2 ranks, so that MPI and self peers sit beside node ones), with fields of 1 to 16
// bytes, dense, padded and interleaved:
//   - every sender's count of sends through the buffer equals its receiver's count from it, and
//     each receiver counts exactly its receives with rows under 64 bytes (by_shape, from 0 bytes);
//   - direct and buffered count none and every one;
//   - every exchange of the piece-grid strategies keeps every ghost byte right.
// On the host backend no sender maps its peers' fields, so every piece goes through the buffer
// whatever the choice: this checks the choice and its agreement; on a GPU backend (the gpu job)
// the choice also picks the path, and the same checks hold.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "typed_field.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::TypedField;
using haloflag::test::TypedLayout;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kExchanges = 3;

ExchangeOptions options_for(Strategy strategy, NodePlacement placement) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = haloflag::test::test_backend();
  options.timeout = std::chrono::seconds(60);
  haloflag::test::apply_test_transport(options);
  options.advanced.node_placement = placement;
  options.advanced.node_buffered_from_bytes = 0;  // every short-row receive, however small
  // Placement is the counted route's: lines are never placed (node_lines_mpi_test.cpp).
  options.advanced.node_lines_up_to_bytes = 0;
  return options;
}

// The receives of this rank with rows under 64 bytes in `layout`'s fields, from `peer`.
int short_row_receives(const Geometry& geometry, const TypedLayout& layout, int peer) {
  const int smallest = *std::min_element(layout.element_bytes.begin(), layout.element_bytes.end());
  int count = 0;
  for (const Message& m : rank_messages(geometry, world_rank()).recvs) {
    if (m.peer != peer) continue;
    std::int64_t shortest = INT64_MAX;
    for (const haloflag::kernels::Box& box : m.boxes) {
      shortest = std::min<std::int64_t>(shortest, layout.interleaved ? smallest
                                                                     : box.extent[0] * smallest);
    }
    if (shortest < 64) ++count;
  }
  return count;
}

// [rank * ranks + peer] of every rank's counts of sends and receives through the buffer.
struct ThroughBuffer {
  std::vector<int> sends;
  std::vector<int> recvs;
};

ThroughBuffer gather_counts(const Exchange& exchange) {
  const int ranks = world_size();
  std::vector<int> sends(static_cast<std::size_t>(ranks), 0);
  std::vector<int> recvs(static_cast<std::size_t>(ranks), 0);
  for (const PeerTransport& peer : exchange.peer_transports()) {
    sends[static_cast<std::size_t>(peer.peer)] = peer.sends_through_buffer;
    recvs[static_cast<std::size_t>(peer.peer)] = peer.recvs_through_buffer;
  }
  ThroughBuffer all{std::vector<int>(static_cast<std::size_t>(ranks * ranks)),
                    std::vector<int>(static_cast<std::size_t>(ranks * ranks))};
  MPI_Allgather(sends.data(), ranks, MPI_INT, all.sends.data(), ranks, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgather(recvs.data(), ranks, MPI_INT, all.recvs.data(), ranks, MPI_INT, MPI_COMM_WORLD);
  return all;
}

// The checks of the file's comment for one Exchange; "" when all hold.
std::string check_choice(const Exchange& exchange, const Geometry& geometry,
                         const TypedLayout& layout, NodePlacement placement) {
  const ThroughBuffer all = gather_counts(exchange);
  const int ranks = world_size();
  const int me = world_rank();
  std::string wrong;
  for (int peer = 0; peer < ranks; ++peer) {
    const auto mine = static_cast<std::size_t>(me * ranks + peer);
    const auto theirs = static_cast<std::size_t>(peer * ranks + me);
    if (all.sends[mine] != all.recvs[theirs]) {
      wrong += " peer " + std::to_string(peer) + " takes " + std::to_string(all.recvs[theirs]) +
               " of this rank's sends through its buffer, this rank counts " +
               std::to_string(all.sends[mine]) + ";";
    }
  }
  const std::vector<Message> receives = rank_messages(geometry, me).recvs;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    int expected = 0;
    if (peer.transport == Transport::node) {
      const int all_receives = static_cast<int>(std::count_if(
          receives.begin(), receives.end(), [&](const Message& m) { return m.peer == peer.peer; }));
      expected = placement == NodePlacement::direct     ? 0
                 : placement == NodePlacement::buffered ? all_receives
                                                        : short_row_receives(geometry, layout, peer.peer);
    }
    if (peer.recvs_through_buffer != expected) {
      wrong += " from peer " + std::to_string(peer.peer) + " (" +
               std::string(to_string(peer.transport)) + "): " +
               std::to_string(peer.recvs_through_buffer) + " receives through the buffer, " +
               std::to_string(expected) + " expected;";
    }
  }
  return wrong;
}

void check_placement(const TypedLayout& layout, Strategy strategy, NodePlacement placement) {
  const Geometry geometry = haloflag::test::typed_geometries(layout).front();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = options_for(strategy, placement);
  TypedField field(options.backend, verifier.field_extent(), layout);
  Exchange exchange(geometry, field.view(), options);
  const std::string label = layout.name + ", " + std::string(to_string(strategy)) + ", " +
                            std::string(to_string(placement)) + ", " +
                            haloflag::test::test_transport_label() + ", rank " +
                            std::to_string(world_rank()) + ": " +
                            describe(exchange.peer_transports());
  EXPECT_EQ(check_choice(exchange, geometry, layout, placement), "") << label;
  // Not vacuous: where every row of the field is short (interleaved, or bytes whose whole row is
  // under 64 bytes), every node peer's receives are.
  const int smallest = *std::min_element(layout.element_bytes.begin(), layout.element_bytes.end());
  const bool all_rows_short = layout.interleaved || smallest * verifier.field_extent()[0] < 64;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    if (peer.transport == Transport::node && placement != NodePlacement::direct &&
        all_rows_short) {
      EXPECT_GT(peer.recvs_through_buffer, 0) << label;
    }
  }
  EXPECT_EQ(haloflag::test::run_typed_verified(exchange, field, verifier, kExchanges), "") << label;
}

TEST(NodePlacementByShape, ReceiversAndSendersAgreeAndEveryGhostByteIsRight) {
  SKIP_WITHOUT_BACKEND();
  for (const TypedLayout& layout : haloflag::test::node_layouts()) {
    for (const Strategy strategy :
         {Strategy::resident, Strategy::stream_notify, Strategy::stacked_notify}) {
      check_placement(layout, strategy, NodePlacement::by_shape);
    }
  }
}

TEST(NodePlacementForced, DirectAndBufferedTakeNoneAndEveryReceive) {
  SKIP_WITHOUT_BACKEND();
  const TypedLayout layout = haloflag::test::node_layouts()[2];
  for (const NodePlacement placement : {NodePlacement::direct, NodePlacement::buffered}) {
    check_placement(layout, Strategy::resident, placement);
  }
}

}  // namespace
