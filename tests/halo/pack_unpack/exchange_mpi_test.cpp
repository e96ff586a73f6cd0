// A real halo exchange on every rank of MPI_COMM_WORLD: fill owned cells from global
// coordinates, pack every send message (one thread, or a team of 4), exchange with
// MPI_Irecv/MPI_Isend using the config's peers, tags and bytes, unpack, and check every ghost
// cell: the value of the global cell it mirrors (periodic wrap), or untouched without a
// neighbour. A second test exchanges message descriptors so that every pair of peers confirms
// it agrees on tags, bytes and global cells.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "field_exchange.hpp"
#include "geometry_cases.hpp"
#include "mpi_world.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::check_field;
using haloflag::test::check_mpi;

using haloflag::test::world_rank;
using haloflag::test::world_size;

using haloflag::test::geometry_cases;
using haloflag::test::GeometryCase;
using haloflag::test::make_geometry;

void run_exchange_and_check(const GeometryCase& c, int group_size) {
  const Geometry geometry = make_geometry(c);
  const int rank = world_rank();
  const ExchangeConfig config = make_exchange_config(geometry);
  const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
  const MessageLayouts layouts = make_message_layouts(config, rank);

  haloflag::test::TestField field(geometry.subdomain(rank).field_extent, c.vars);
  haloflag::test::fill_owned_from_geometry(field, geometry, rank);
  haloflag::test::exchange_messages(messages, layouts, field, MPI_COMM_WORLD, group_size);

  const std::string report =
      check_field(field, haloflag::test::geometry_expectation(geometry, rank));
  EXPECT_TRUE(report.empty()) << "case " << c.name << ", rank " << rank << ", grid "
                              << format_triple(geometry.rank_grid(), 'x') << ", group size "
                              << group_size << ": " << report;
}

TEST(HaloExchange, GhostCellsHoldTheNeighboursValuesOneThread) {
  for (const GeometryCase& c : geometry_cases()) run_exchange_and_check(c, 1);
}

TEST(HaloExchange, GhostCellsHoldTheNeighboursValuesTeamOfFour) {
  for (const GeometryCase& c : geometry_cases()) run_exchange_and_check(c, 4);
}

// What a sender tells the receiver about one message, checked against the receiver's own view.
struct Descriptor {
  std::int64_t sender;
  std::int64_t tag;
  std::int64_t bytes;
  std::int64_t global_begin[3];  // wrapped global index of the first cell in pack order
  std::int64_t extent[3];
};

constexpr int kDescriptorTagBase = 1000;  // apart from the halo tags 0..25

Descriptor describe_box(const Geometry& geometry, int rank, const Message& m) {
  const haloflag::kernels::Box& box = m.boxes.front();
  const Index3 begin{box.begin[0], box.begin[1], box.begin[2]};
  const Index3 global = geometry.wrap(geometry.global_index(rank, begin)).value();
  return Descriptor{rank, m.tag, m.bytes, {global[0], global[1], global[2]},
                    {box.extent[0], box.extent[1], box.extent[2]}};
}

TEST(HaloExchange, EveryPairOfPeersAgreesOnTagsBytesAndCells) {
  constexpr int kFields = static_cast<int>(sizeof(Descriptor) / sizeof(std::int64_t));
  for (const GeometryCase& c : geometry_cases()) {
    const Geometry geometry = make_geometry(c);
    const int rank = world_rank();
    const RankMessages messages = rank_messages(geometry, rank);

    std::vector<Descriptor> sent(messages.sends.size());
    std::vector<Descriptor> received(messages.recvs.size());
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < messages.recvs.size(); ++i) {
      const Message& m = messages.recvs[i];
      requests.emplace_back();
      check_mpi(MPI_Irecv(&received[i], kFields, MPI_INT64_T, m.peer, kDescriptorTagBase + m.tag,
                          MPI_COMM_WORLD, &requests.back()),
                "MPI_Irecv descriptor " + haloflag::test::describe("recv", m));
    }
    for (std::size_t i = 0; i < messages.sends.size(); ++i) {
      const Message& m = messages.sends[i];
      sent[i] = describe_box(geometry, rank, m);
      requests.emplace_back();
      check_mpi(MPI_Isend(&sent[i], kFields, MPI_INT64_T, m.peer, kDescriptorTagBase + m.tag,
                          MPI_COMM_WORLD, &requests.back()),
                "MPI_Isend descriptor " + haloflag::test::describe("send", m));
    }
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                          MPI_STATUSES_IGNORE),
              "MPI_Waitall on descriptors");

    for (std::size_t i = 0; i < messages.recvs.size(); ++i) {
      const Message& m = messages.recvs[i];
      const Descriptor mine = describe_box(geometry, rank, m);
      const Descriptor& theirs = received[i];
      const std::string where = "case " + c.name + ", rank " + std::to_string(rank) + " " +
                                haloflag::test::describe("recv", m);
      EXPECT_EQ(theirs.sender, m.peer) << where;
      EXPECT_EQ(theirs.tag, m.tag) << where;
      EXPECT_EQ(theirs.bytes, m.bytes) << where;
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_EQ(theirs.global_begin[axis], mine.global_begin[axis]) << where << " axis " << axis;
        EXPECT_EQ(theirs.extent[axis], mine.extent[axis]) << where << " axis " << axis;
      }
    }
  }
}

}  // namespace
