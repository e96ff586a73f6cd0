// Decomposition, neighbours, message sizes (the paper's Table 2), send/receive agreement, the
// automatic rank grid and the errors for bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/direction.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/rank_grid.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::kernels::Box;

GeometrySpec cube_spec(std::int64_t n, int ranks, bool periodic) {
  GeometrySpec spec;
  spec.global_size = {n, n, n};
  spec.ranks = ranks;
  spec.periodic = {periodic, periodic, periodic};
  spec.ghost = {1, 1, 1};
  spec.vars = 3;
  return spec;
}

template <class F>
std::string geometry_error_of(F f) {
  try {
    f();
  } catch (const GeometryError& e) {
    return e.what();
  }
  return "<no GeometryError thrown>";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << text << "' lacks '" << part << "'";
}

TEST(Direction, IndexRoundTripsAndOppositeIsMirrored) {
  std::set<int> indices;
  for (int index = 0; index < kDirectionCount; ++index) {
    const Direction d = direction_from_index(index);
    EXPECT_EQ(direction_index(d), index);
    EXPECT_NE(d.nonzero_axes(), 0);
    EXPECT_EQ(direction_index(opposite(d)), opposite_index(index));
    indices.insert(index);
  }
  EXPECT_EQ(indices.size(), 26u);
  EXPECT_EQ(direction_name(Direction{-1, 0, 1}), "-x+z");
  EXPECT_EQ(stencil_directions(Stencil::all26).size(), 26u);
  EXPECT_EQ(stencil_directions(Stencil::faces6).size(), 6u);
}

TEST(Geometry, SubdomainsCoverTheDomainWithRemaindersFirst) {
  GeometrySpec spec = cube_spec(10, 12, false);
  spec.global_size = {10, 7, 5};
  spec.divide = RankGrid{3, 2, 2};
  const Geometry geometry(spec);
  // x: 10 = 4 + 3 + 3; y: 7 = 4 + 3; z: 5 = 3 + 2.
  EXPECT_EQ(geometry.subdomain(0).extent, (Index3{4, 4, 3}));
  EXPECT_EQ(geometry.subdomain(1).offset, (Index3{4, 0, 0}));
  EXPECT_EQ(geometry.subdomain(2).extent, (Index3{3, 4, 3}));
  EXPECT_EQ(geometry.subdomain(2).offset, (Index3{7, 0, 0}));
  EXPECT_EQ(geometry.subdomain(11).offset, (Index3{7, 4, 3}));
  EXPECT_EQ(geometry.subdomain(11).extent, (Index3{3, 3, 2}));
  EXPECT_EQ(geometry.subdomain(11).field_extent, (Index3{5, 5, 4}));
  std::int64_t cells = 0;
  for (int rank = 0; rank < 12; ++rank) {
    const Index3 e = geometry.subdomain(rank).extent;
    cells += e[0] * e[1] * e[2];
    EXPECT_EQ(geometry.rank_at(geometry.coords_of(rank)), rank);
  }
  EXPECT_EQ(cells, 10 * 7 * 5);
  EXPECT_EQ(geometry.coords_of(5), (RankGrid{2, 1, 0}));
}

// The paper's Table 2: a cube on 4x4x4 ranks, ghost 1, 3 doubles.
struct Table2Row {
  std::int64_t cube;
  std::int64_t face;
  std::int64_t edge;
  std::int64_t vertex;
};

class Table2 : public testing::TestWithParam<Table2Row> {};

TEST_P(Table2, EveryRankSendsAndReceives26MessagesOfTheTableSizes) {
  const Table2Row row = GetParam();
  GeometrySpec spec = cube_spec(row.cube, 64, true);
  spec.divide = RankGrid{4, 4, 4};
  const Geometry geometry(spec);
  for (int rank = 0; rank < 64; ++rank) {
    const std::vector<Neighbour> neighbours = geometry.neighbours(rank);
    ASSERT_EQ(neighbours.size(), 26u) << "rank " << rank;
    std::map<std::int64_t, int> count_by_bytes;
    for (const Neighbour& n : neighbours) {
      ++count_by_bytes[n.bytes];
      const std::int64_t expected = n.direction.nonzero_axes() == 1   ? row.face
                                    : n.direction.nonzero_axes() == 2 ? row.edge
                                                                      : row.vertex;
      EXPECT_EQ(n.bytes, expected) << "rank " << rank << " direction "
                                   << direction_name(n.direction);
    }
    EXPECT_EQ(count_by_bytes[row.face], 6) << "rank " << rank;
    EXPECT_EQ(count_by_bytes[row.edge], 12) << "rank " << rank;
    EXPECT_EQ(count_by_bytes[row.vertex], 8) << "rank " << rank;
  }
}

INSTANTIATE_TEST_SUITE_P(Cubes, Table2,
                         testing::Values(Table2Row{200, 60000, 1200, 24},
                                         Table2Row{400, 240000, 2400, 24},
                                         Table2Row{800, 960000, 4800, 24}),
                         [](const auto& row) { return "cube" + std::to_string(row.param.cube); });

TEST(Geometry, NonPeriodicBoundaryRanksHaveFewerNeighbours) {
  GeometrySpec spec = cube_spec(200, 64, false);
  const Geometry geometry(spec);
  ASSERT_EQ(geometry.rank_grid(), (RankGrid{4, 4, 4}));
  EXPECT_EQ(geometry.neighbours(0).size(), 7u);    // corner (0,0,0)
  EXPECT_EQ(geometry.neighbours(1).size(), 11u);   // edge (1,0,0)
  EXPECT_EQ(geometry.neighbours(5).size(), 17u);   // face (1,1,0)
  EXPECT_EQ(geometry.neighbours(21).size(), 26u);  // interior (1,1,1)
  std::map<std::size_t, int> ranks_by_count;
  for (int rank = 0; rank < 64; ++rank) ++ranks_by_count[geometry.neighbours(rank).size()];
  EXPECT_EQ(ranks_by_count, (std::map<std::size_t, int>{{7, 8}, {11, 24}, {17, 24}, {26, 8}}));
  EXPECT_FALSE(geometry.peer(0, Direction{-1, 0, 0}).has_value());
  EXPECT_EQ(geometry.peer(0, Direction{1, 0, 0}), 1);
}

TEST(Geometry, FacesOnlyStencilHasSixNeighbours) {
  GeometrySpec spec = cube_spec(200, 64, true);
  spec.stencil = Stencil::faces6;
  const Geometry periodic(spec);
  for (int rank = 0; rank < 64; ++rank) {
    const auto neighbours = periodic.neighbours(rank);
    ASSERT_EQ(neighbours.size(), 6u);
    for (const Neighbour& n : neighbours) EXPECT_EQ(n.bytes, 60000);
  }
  spec.periodic = {false, false, false};
  EXPECT_EQ(Geometry(spec).neighbours(0).size(), 3u);
  EXPECT_EQ(Geometry(spec).neighbours(21).size(), 6u);
}

TEST(Geometry, TagsFollowTheDirectionRule) {
  const Geometry geometry(cube_spec(12, 8, true));
  for (int rank = 0; rank < 8; ++rank) {
    for (const Neighbour& n : geometry.neighbours(rank)) {
      EXPECT_EQ(n.send_tag, direction_index(n.direction));
      EXPECT_EQ(n.recv_tag, direction_index(opposite(n.direction)));
      EXPECT_EQ(n.recv_tag, 25 - n.send_tag);
    }
  }
}

// Global cells of a box of `rank`'s field, wrapped, in pack order (z, y, x).
std::vector<Index3> global_cells(const Geometry& geometry, int rank, const Box& box) {
  std::vector<Index3> cells;
  for (std::int64_t z = 0; z < box.extent[2]; ++z)
    for (std::int64_t y = 0; y < box.extent[1]; ++y)
      for (std::int64_t x = 0; x < box.extent[0]; ++x) {
        const Index3 local{box.begin[0] + x, box.begin[1] + y, box.begin[2] + z};
        const auto wrapped = geometry.wrap(geometry.global_index(rank, local));
        EXPECT_TRUE(wrapped.has_value()) << "rank " << rank << " cell outside the domain";
        cells.push_back(wrapped.value_or(Index3{-1, -1, -1}));
      }
  return cells;
}

bool box_inside(const Box& box, const Index3& field) {
  for (int axis = 0; axis < 3; ++axis) {
    if (box.begin[axis] < 0 || box.extent[axis] <= 0 || box.begin[axis] + box.extent[axis] > field[axis])
      return false;
  }
  return true;
}

// For every rank and every message of the config: the peer has exactly one receive with that
// tag, of the same bytes, whose boxes hold the same global cells in the same order.
void expect_sends_match_receives(const GeometrySpec& spec) {
  const Geometry geometry(spec);
  const ExchangeConfig config = make_exchange_config(geometry);
  ASSERT_EQ(config.rank_messages.size(), static_cast<std::size_t>(geometry.ranks()));
  std::size_t messages = 0;
  for (int rank = 0; rank < geometry.ranks(); ++rank) {
    const RankMessages& mine = config.rank_messages[static_cast<std::size_t>(rank)];
    const Subdomain sub = geometry.subdomain(rank);
    EXPECT_EQ(mine.field_extent, sub.field_extent);
    std::set<std::pair<int, int>> send_keys;
    std::set<std::pair<int, int>> recv_keys;
    for (const Message& m : mine.sends) {
      EXPECT_TRUE(send_keys.emplace(m.peer, m.tag).second)
          << "rank " << rank << " sends twice to " << m.peer << " with tag " << m.tag;
    }
    for (const Message& m : mine.recvs) {
      EXPECT_TRUE(recv_keys.emplace(m.peer, m.tag).second)
          << "rank " << rank << " receives twice from " << m.peer << " with tag " << m.tag;
      ASSERT_EQ(m.boxes.size(), 1u);
      EXPECT_TRUE(box_inside(m.boxes[0], sub.field_extent));
    }
    for (const Message& send : mine.sends) {
      ++messages;
      ASSERT_EQ(send.boxes.size(), 1u);
      EXPECT_TRUE(box_inside(send.boxes[0], sub.field_extent));
      const RankMessages& theirs = config.rank_messages[static_cast<std::size_t>(send.peer)];
      const auto matches = std::count_if(theirs.recvs.begin(), theirs.recvs.end(),
                                         [&](const Message& r) {
                                           return r.peer == rank && r.tag == send.tag;
                                         });
      ASSERT_EQ(matches, 1) << "rank " << rank << " -> " << send.peer << " tag " << send.tag;
      const Message& recv = *std::find_if(theirs.recvs.begin(), theirs.recvs.end(),
                                          [&](const Message& r) {
                                            return r.peer == rank && r.tag == send.tag;
                                          });
      EXPECT_EQ(recv.bytes, send.bytes);
      EXPECT_EQ(recv.boxes[0].cells() * spec.vars * spec.element_bytes, send.bytes);
      EXPECT_EQ(global_cells(geometry, rank, send.boxes[0]),
                global_cells(geometry, send.peer, recv.boxes[0]))
          << "rank " << rank << " -> " << send.peer << " tag " << send.tag;
    }
    EXPECT_EQ(mine.sends.size(), mine.recvs.size());
  }
  EXPECT_GT(messages, 0u);
}

struct NamedSpec {
  std::string name;
  GeometrySpec spec;
};

std::vector<NamedSpec> matching_cases() {
  std::vector<NamedSpec> cases;
  const auto add = [&](std::string name, Index3 size, RankGrid divide, std::array<bool, 3> periodic,
                       Index3 ghost, int vars, Stencil stencil) {
    GeometrySpec spec;
    spec.global_size = size;
    spec.divide = divide;
    spec.ranks = divide[0] * divide[1] * divide[2];
    spec.periodic = periodic;
    spec.ghost = ghost;
    spec.vars = vars;
    spec.stencil = stencil;
    cases.push_back({std::move(name), spec});
  };
  const std::array<bool, 3> all{true, true, true};
  const std::array<bool, 3> none{false, false, false};
  add("periodic_1x1x1", {6, 5, 4}, {1, 1, 1}, all, {1, 1, 1}, 1, Stencil::all26);
  add("periodic_1x1x1_ghost2", {6, 5, 4}, {1, 1, 1}, all, {2, 2, 2}, 2, Stencil::all26);
  add("periodic_2x1x1", {8, 6, 6}, {2, 1, 1}, all, {1, 1, 1}, 3, Stencil::all26);
  add("periodic_2x2x2", {8, 8, 8}, {2, 2, 2}, all, {1, 1, 1}, 3, Stencil::all26);
  add("periodic_2x2x2_ghost2", {9, 8, 7}, {2, 2, 2}, all, {2, 2, 2}, 1, Stencil::all26);
  add("periodic_4x4x4", {200, 200, 200}, {4, 4, 4}, all, {1, 1, 1}, 3, Stencil::all26);
  add("nondivisible_3x2x4", {13, 11, 17}, {3, 2, 4}, all, {1, 2, 1}, 2, Stencil::all26);
  add("nonperiodic_3x3x3", {10, 11, 12}, {3, 3, 3}, none, {2, 2, 2}, 1, Stencil::all26);
  add("mixed_periodic_2x3x1", {7, 9, 5}, {2, 3, 1}, {true, false, true}, {1, 1, 2}, 2,
      Stencil::all26);
  add("faces_only_2x2x2", {10, 10, 10}, {2, 2, 2}, all, {1, 1, 1}, 3, Stencil::faces6);
  add("faces_only_nonperiodic_3x1x2", {12, 5, 7}, {3, 1, 2}, none, {2, 1, 1}, 1,
      Stencil::faces6);
  return cases;
}

class SendsMatchReceives : public testing::TestWithParam<NamedSpec> {};

TEST_P(SendsMatchReceives, SameCellsSameOrderSameBytesSameTag) {
  expect_sends_match_receives(GetParam().spec);
}

INSTANTIATE_TEST_SUITE_P(Geometries, SendsMatchReceives, testing::ValuesIn(matching_cases()),
                         [](const auto& named) { return named.param.name; });

TEST(Geometry, OneRankPeriodicIsItsOwnNeighbourWithUniqueTags) {
  GeometrySpec spec = cube_spec(6, 1, true);
  const Geometry geometry(spec);
  const auto neighbours = geometry.neighbours(0);
  ASSERT_EQ(neighbours.size(), 26u);
  std::set<int> tags;
  for (const Neighbour& n : neighbours) {
    EXPECT_EQ(n.peer, 0);
    tags.insert(n.send_tag);
  }
  EXPECT_EQ(tags.size(), 26u);
}

TEST(AutoDivide, PicksTheMostCubicGrid) {
  EXPECT_EQ(auto_divide(64, {200, 200, 200}), (RankGrid{4, 4, 4}));
  EXPECT_EQ(auto_divide(8, {200, 200, 200}), (RankGrid{2, 2, 2}));
  EXPECT_EQ(auto_divide(27, {90, 90, 90}), (RankGrid{3, 3, 3}));
  EXPECT_EQ(auto_divide(4, {200, 200, 200}), (RankGrid{2, 2, 1}));  // tie: x split first
  EXPECT_EQ(auto_divide(2, {200, 200, 200}), (RankGrid{2, 1, 1}));
  EXPECT_EQ(auto_divide(12, {120, 120, 120}), (RankGrid{3, 2, 2}));
  EXPECT_EQ(auto_divide(7, {100, 100, 100}), (RankGrid{7, 1, 1}));
  EXPECT_EQ(auto_divide(8, {400, 200, 100}), (RankGrid{4, 2, 1}));
  EXPECT_EQ(auto_divide(8, {100, 200, 400}), (RankGrid{1, 2, 4}));
  EXPECT_EQ(auto_divide(1, {5, 5, 5}), (RankGrid{1, 1, 1}));
  EXPECT_EQ(auto_divide(4, {1, 1, 4}), (RankGrid{1, 1, 4}));  // the only grid with cells for all
}

TEST(AutoDivide, IsAValidFactorisationForOneToSixtyFourRanks) {
  for (const Index3 size : {Index3{200, 200, 200}, Index3{64, 64, 64}, Index3{100, 37, 250}}) {
    for (int ranks = 1; ranks <= 64; ++ranks) {
      const RankGrid grid = auto_divide(ranks, size);
      EXPECT_EQ(grid[0] * grid[1] * grid[2], ranks) << ranks << " ranks";
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_GE(grid[axis], 1);
        EXPECT_LE(grid[axis], size[axis]);
      }
      EXPECT_EQ(auto_divide(ranks, size), grid) << "not deterministic";
      GeometrySpec spec = cube_spec(1, ranks, true);
      spec.global_size = size;
      EXPECT_EQ(Geometry(spec).rank_grid(), grid);
    }
  }
}

TEST(AutoDivide, RejectsImpossibleRequests) {
  expect_contains(geometry_error_of([] { auto_divide(0, {10, 10, 10}); }),
                  "number of ranks must be positive");
  expect_contains(geometry_error_of([] { auto_divide(4, {10, 0, 10}); }),
                  "size along y must be positive");
  expect_contains(geometry_error_of([] { auto_divide(9, {1, 2, 2}); }),
                  "every rank owns at least one cell");
}

TEST(GeometryErrors, RankGridWhoseProductIsNotTheNumberOfRanks) {
  GeometrySpec spec = cube_spec(200, 64, true);
  spec.divide = RankGrid{4, 4, 2};
  const std::string message = geometry_error_of([&] { Geometry{spec}; });
  expect_contains(message, "rank grid 4x4x2 holds 32 ranks");
  expect_contains(message, "number of ranks is 64");
}

TEST(GeometryErrors, ZeroOrNegativeSizes) {
  const auto error_with = [](auto change) {
    GeometrySpec spec = cube_spec(200, 8, true);
    change(spec);
    return geometry_error_of([&] { Geometry{spec}; });
  };
  expect_contains(error_with([](GeometrySpec& s) { s.global_size[1] = 0; }),
                  "global size along y must be positive, got 0");
  expect_contains(error_with([](GeometrySpec& s) { s.global_size[2] = -4; }),
                  "global size along z must be positive, got -4");
  expect_contains(error_with([](GeometrySpec& s) { s.ghost[0] = 0; }),
                  "ghost width along x must be positive, got 0");
  expect_contains(error_with([](GeometrySpec& s) { s.ghost[2] = -1; }),
                  "ghost width along z must be positive, got -1");
  expect_contains(error_with([](GeometrySpec& s) { s.vars = 0; }),
                  "number of variables must be positive, got 0");
  expect_contains(error_with([](GeometrySpec& s) { s.element_bytes = -8; }),
                  "element size must be a positive number of bytes, got -8");
  expect_contains(error_with([](GeometrySpec& s) { s.ranks = 0; }),
                  "number of ranks must be positive, got 0");
  expect_contains(error_with([](GeometrySpec& s) { s.ranks = -2; }),
                  "number of ranks must be positive, got -2");
  expect_contains(error_with([](GeometrySpec& s) { s.divide = RankGrid{2, 0, 4}; }),
                  "has 0 ranks along y");
  expect_contains(error_with([](GeometrySpec& s) { s.divide = RankGrid{2, -2, -2}; }),
                  "has -2 ranks along y");
}

TEST(GeometryErrors, GhostWiderThanASubdomainNamesAxisRankAndSizes) {
  GeometrySpec spec = cube_spec(10, 16, true);
  spec.divide = RankGrid{1, 4, 4};
  spec.global_size = {10, 10, 20};
  spec.ghost = {1, 3, 3};
  const std::string message = geometry_error_of([&] { Geometry{spec}; });
  // y: 10 cells split 4 ways -> 3,3,2,2; the last coordinate (rank 3 along y = rank 3) has 2.
  expect_contains(message, "ghost width 3 along y is wider than the subdomain of rank 3");
  expect_contains(message, "2 cells along y: 10 cells split 4 ways");
  EXPECT_EQ(message.find("along z is wider"), std::string::npos) << message;  // 20/4 = 5 >= 3
}

TEST(GeometryErrors, GridFinerThanTheDomain) {
  GeometrySpec spec = cube_spec(3, 4, true);
  spec.divide = RankGrid{4, 1, 1};
  expect_contains(geometry_error_of([&] { Geometry{spec}; }),
                  "splits x (3 cells) into 4 parts");
}

TEST(GeometryErrors, RankOutOfRange) {
  const Geometry geometry(cube_spec(200, 64, true));
  expect_contains(geometry_error_of([&] { geometry.coords_of(64); }),
                  "rank 64 is out of range [0, 64)");
  expect_contains(geometry_error_of([&] { geometry.subdomain(-1); }),
                  "rank -1 is out of range [0, 64)");
  expect_contains(geometry_error_of([&] { geometry.neighbours(100); }),
                  "rank 100 is out of range");
  expect_contains(geometry_error_of([&] { geometry.rank_at(RankGrid{4, 0, 0}); }),
                  "coordinates 4,0,0 lie outside the rank grid 4x4x4");
}

}  // namespace
