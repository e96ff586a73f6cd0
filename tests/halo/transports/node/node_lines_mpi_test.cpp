// The node transport's lines (AdvancedOptions::node_lines_up_to_bytes) with real MPI ranks, at
// 2 and 4 ranks and with nodes of 2 ranks (MPI and self peers beside node ones), fields of 1 to
// 16 bytes, dense, padded and interleaved:
//   - a receiver takes a node peer's messages in lines exactly when every element is a multiple
//     of 4 bytes and they fit the limit, and its sender says it sends them lines;
//   - every exchange of the piece-grid strategies keeps every ghost byte right, over more
//     exchanges than the two sets of words, so that each set is written again;
//   - a limit below the messages, and 0, keep every peer off lines, and so does the pinned-host
//     fallback on a GPU backend (HALOFLAG_TEST_NODE_MAPPING=host).
// The exchange strategies test runs lines at 8 ranks too (they are the default for its fields).
#include <gtest/gtest.h>

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

constexpr int kExchanges = 5;

// The node tests' layouts, and one that mixes a word-sized variable with a byte.
std::vector<TypedLayout> lines_layouts() {
  std::vector<TypedLayout> layouts = haloflag::test::node_layouts();
  layouts.push_back({"double + uint8", {8, 1}, false, 1});
  return layouts;
}

bool words_only(const TypedLayout& layout) {
  for (const int bytes : layout.element_bytes) {
    if (bytes % 4 != 0) return false;
  }
  return true;
}

bool says(const PeerTransport& peer, const std::string& what) {
  return peer.path.find(what) != std::string::npos;
}

// Every node peer's path says lines as `expected` says, both ways; "" when it does.
std::string check_paths(const Exchange& exchange, bool expected) {
  std::string wrong;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    if (peer.transport != Transport::node) continue;
    if (says(peer, "takes its messages in lines") != expected ||
        says(peer, "sends it lines") != expected) {
      wrong += " peer " + std::to_string(peer.peer) + ": \"" + peer.path + "\";";
    }
  }
  return wrong;
}

void check_lines(const TypedLayout& layout, Strategy strategy, std::int64_t up_to_bytes,
                 bool expected) {
  const Geometry geometry = haloflag::test::typed_geometries(layout).front();
  const ExchangeVerifier verifier(geometry, world_rank());
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = haloflag::test::test_backend();
  options.timeout = std::chrono::seconds(60);
  haloflag::test::apply_test_transport(options);
  options.advanced.node_lines_up_to_bytes = up_to_bytes;
  TypedField field(options.backend, verifier.field_extent(), layout);
  Exchange exchange(geometry, field.view(), options);
  const std::string label = layout.name + ", " + std::string(to_string(strategy)) +
                            ", up to " + std::to_string(up_to_bytes) + " bytes, " +
                            haloflag::test::test_transport_label() + ", rank " +
                            std::to_string(world_rank()) + ": " +
                            describe(exchange.peer_transports());
  // Lines in pinned host memory (the forced fallback on a GPU) would be read across the bus.
  const bool host_region = options.backend != haloflag::notify::Backend::host &&
                           options.advanced.node_mapping == NodeMapping::host;
  EXPECT_EQ(check_paths(exchange, expected && !host_region), "") << label;
  EXPECT_EQ(haloflag::test::run_typed_verified(exchange, field, verifier, kExchanges), "") << label;
}

TEST(NodeLines, WordSizedElementsGoInLinesAndEveryGhostByteIsRight) {
  SKIP_WITHOUT_BACKEND();
  for (const TypedLayout& layout : lines_layouts()) {
    for (const Strategy strategy :
         {Strategy::resident, Strategy::stream_notify, Strategy::stacked_notify}) {
      check_lines(layout, strategy, kSuggestedNodeLinesUpToBytes, words_only(layout));
    }
  }
}

TEST(NodeLines, ALimitBelowTheMessagesAndZeroKeepEveryPeerOff) {
  SKIP_WITHOUT_BACKEND();
  const TypedLayout layout = lines_layouts()[2];
  for (const std::int64_t up_to_bytes : {std::int64_t{0}, std::int64_t{8}}) {
    check_lines(layout, Strategy::resident, up_to_bytes, false);
  }
}

// The bulk strategies pack whole messages into the receiver's buffer: never lines.
TEST(NodeLines, TheBulkStrategiesNeverTakeLines) {
  SKIP_WITHOUT_BACKEND();
  const TypedLayout layout = lines_layouts()[2];
  for (const Strategy strategy : {Strategy::comb_fused, Strategy::stream_base}) {
    check_lines(layout, strategy, kSuggestedNodeLinesUpToBytes, false);
  }
}

}  // namespace
