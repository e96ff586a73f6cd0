// Runs the shipped configs that fit this communicator through a real exchange: parse the file,
// build the layouts, pack every send, MPI_Irecv/MPI_Isend with the file's peers, tags and bytes,
// unpack, and check every ghost cell.
//
// Expectations:
//  * full decompositions (comb_200_np4.cfg, comb_200_np8.cfg): owned cells hold values derived
//    from global coordinates; every ghost cell must hold the value of the global cell it mirrors
//    (periodic wrap), exactly as in the halo exchange test.
//  * reductions to 2, 4 or 8 ranks (comb_*_np{2,4,8}_reduced.cfg): every rank replays one
//    interior rank's 26 messages, the one in direction d to peer reduced_peer(rank, N, d). Owned
//    cells hold values of a periodic box the size of one subdomain, tagged with the owner; every
//    ghost cell on side d must hold that peer's owned cell at ((L - ghost) mod extent) + ghost,
//    which shows that each message came from the right peer and landed in the ghost region of
//    the matching direction.
// The 64-rank files need 64 ranks and are checked without MPI (config_file_test).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "field_exchange.hpp"
#include "mpi_world.hpp"
#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"

#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name the folder of the shipped configs"
#endif

namespace {

namespace fs = std::filesystem;
using namespace haloflag::halo;

const std::vector<std::string> kRunnableConfigs = {
    "comb_200_np2_reduced.cfg", "comb_400_np2_reduced.cfg", "comb_800_np2_reduced.cfg",
    "comb_200_np4.cfg",         "comb_200_np8.cfg",         "comb_200_np4_reduced.cfg",
    "comb_200_np8_reduced.cfg"};

using haloflag::test::world_rank;
using haloflag::test::world_size;

// Exchanges the config once with a team of group_size and returns "" or a mismatch report.
std::string exchange_and_check(const ExchangeConfig& config, int group_size) {
  const int rank = world_rank();
  const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
  const MessageLayouts layouts = make_message_layouts(config, rank);
  haloflag::test::TestField field(messages.field_extent.value(), config.data->vars);

  if (config.geometry->reduced_from_rank) {
    const Index3 ghost = config.geometry->ghost;
    haloflag::test::fill_owned_reduced(field, ghost, rank);
    haloflag::test::exchange_messages(messages, layouts, field, MPI_COMM_WORLD, group_size);
    return haloflag::test::check_field(
        field, haloflag::test::reduced_expectation(field.extent(), ghost, config.geometry->stencil,
                                                   rank, config.geometry->reduced_ranks));
  }
  const Geometry geometry(geometry_spec_of(config));
  if (geometry.subdomain(rank).field_extent != field.extent()) {
    return "the file's field extent differs from its geometry's";
  }
  haloflag::test::fill_owned_from_geometry(field, geometry, rank);
  haloflag::test::exchange_messages(messages, layouts, field, MPI_COMM_WORLD, group_size);
  return haloflag::test::check_field(field, haloflag::test::geometry_expectation(geometry, rank));
}

// One test for all files of this communicator size; it skips (with the reason) only when no
// shipped config has this many ranks.
TEST(ShippedConfigExchange, GhostCellsHoldTheExpectedValuesForEveryConfigOfThisSize) {
  std::vector<std::string> applicable;
  for (const std::string& name : kRunnableConfigs) {
    const ExchangeConfig config = read_config_file(fs::path(HALOFLAG_COMB_CONFIG_DIR) / name);
    if (config.ranks == world_size()) applicable.push_back(name);
  }
  if (applicable.empty()) {
    GTEST_SKIP() << "no shipped config has " << world_size() << " ranks (the runnable ones have "
                 << "2, 4 or 8)";
  }
  for (const std::string& name : applicable) {
    const ExchangeConfig config = read_config_file(fs::path(HALOFLAG_COMB_CONFIG_DIR) / name);
    ASSERT_TRUE(config.geometry && config.data) << name << ": expectations need its records";
    // A team of 4 as well on the small fields; the large ones take seconds per pass unoptimised.
    const bool small = config.rank_messages.front().field_extent.value()[0] <= 110;
    for (const int group_size : {1, 4}) {
      if (group_size > 1 && !small) continue;
      const std::string report = exchange_and_check(config, group_size);
      EXPECT_TRUE(report.empty()) << name << ", rank " << world_rank() << ", group size "
                                  << group_size << ": " << report;
    }
    if (world_rank() == 0) {
      std::printf("[ exchanged ] %s on %d ranks, packed by 1 thread%s\n", name.c_str(),
                  world_size(), small ? " and by a team of 4" : "");
    }
  }
}

TEST(ShippedConfigExchange, EveryRunnableConfigHasTwoFourOrEightRanks) {
  for (const std::string& name : kRunnableConfigs) {
    const int ranks = read_config_file(fs::path(HALOFLAG_COMB_CONFIG_DIR) / name).ranks;
    EXPECT_TRUE(ranks == 2 || ranks == 4 || ranks == 8) << name << " has " << ranks << " ranks";
  }
}

}  // namespace
