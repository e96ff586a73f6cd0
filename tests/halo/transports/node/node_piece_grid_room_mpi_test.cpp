// The room of the node transport's piece grid on a GPU (LaunchSettings::node_blocks, design.md's
// node transport): a resident piece grid takes at most half of the block slots the exchange's
// other kernels leave, so that the program's own kernels keep the rest between exchanges; a
// count the caller sets may take all of them, every ghost byte still right, and one block more
// is refused at set-up, naming the room. The room is a GPU's block slots: the test runs on a GPU
// backend (its gpu job, 2 ranks) and skips on the host, whose lanes have no slots.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "haloflag/error.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "typed_field.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::TypedField;
using haloflag::test::world_rank;

constexpr int kExchanges = 3;

ExchangeOptions resident_over_node(int node_blocks) {
  ExchangeOptions options;
  options.strategy = Strategy::resident;
  options.backend = haloflag::test::test_backend();
  options.timeout = std::chrono::seconds(60);
  options.transport = Transport::node;
  // The smallest pieces (a double per thread of a block), so that over a cube of 256 the default
  // grid is bounded by its room, not by the pieces.
  options.advanced.launch.node_piece_bytes = 2048;
  options.advanced.launch.node_blocks = node_blocks;
  return options;
}

// The number in `text` after `label` (its first occurrence), or -1.
long number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return -1;
  return std::stol(text.substr(at + label.size()));
}

// A periodic cube of `cells` per axis over every rank, of `layout`'s variables.
GeometrySpec periodic_cube(int cells, const haloflag::test::TypedLayout& layout) {
  GeometrySpec spec;
  spec.global_size = {cells, cells, cells};
  spec.ranks = haloflag::test::world_size();
  spec.periodic = {true, true, true};
  spec.vars = static_cast<int>(layout.element_bytes.size());
  spec.element_bytes = layout.element_bytes.front();
  spec.variable_bytes = layout.element_bytes;
  return spec;
}

TEST(NodePieceGridRoom, AResidentGridTakesHalfTheRoomAndACountMayTakeAllOfIt) {
  SKIP_UNLESS_GPU_BACKEND("the piece grid's room in block slots");
  const haloflag::test::TypedLayout layout = haloflag::test::node_layouts()[2];  // double
  const Geometry geometry(periodic_cube(256, layout));
  const ExchangeVerifier verifier(geometry, world_rank());
  TypedField field(haloflag::test::test_backend(), verifier.field_extent(), layout);
  const std::string rank = "rank " + std::to_string(world_rank()) + ": ";

  // More blocks than any GPU holds: refused at set-up on every rank, naming the whole room.
  std::string refused;
  try {
    Exchange too_many(geometry, field.view(), resident_over_node(1 << 30));
  } catch (const haloflag::Error& error) {
    EXPECT_EQ(error.kind(), haloflag::ErrorKind::co_residency) << rank << error.what();
    refused = error.what();
  }
  const long whole_room = number_after(refused, "has room for ");
  ASSERT_GT(whole_room, 1) << rank << "no room named in: '" << refused << "'";

  // The default: at most half of it.
  {
    Exchange by_default(geometry, field.view(), resident_over_node(0));
    const std::string launch = by_default.launch_description();
    // "piece grid B blocks x T threads (S send and R receive pieces)": one block per piece of
    // the more numerous side, as many as half the room holds.
    const std::string grid = launch.substr(launch.find("piece grid "));
    const long pieces = std::max(number_after(grid, "threads ("), number_after(grid, "and "));
    ASSERT_GT(pieces, whole_room / 2) << rank << "too few pieces to fill half the room: " << launch;
    EXPECT_EQ(number_after(launch, "piece grid "), whole_room / 2) << rank << launch;
    EXPECT_EQ(haloflag::test::run_typed_verified(by_default, field, verifier, kExchanges), "")
        << rank << launch;
  }

  // The whole room when asked: every block of it runs, and every ghost byte is right.
  Exchange whole(geometry, field.view(), resident_over_node(static_cast<int>(whole_room)));
  const std::string launch = whole.launch_description();
  EXPECT_EQ(number_after(launch, "piece grid "), whole_room) << rank << launch;
  EXPECT_EQ(haloflag::test::run_typed_verified(whole, field, verifier, kExchanges), "")
      << rank << launch;
}

}  // namespace
