// Configs built from geometry: per-rank messages, the reductions to 2, 4 and 8 ranks and their
// peer rule, the geometry record, and the message layouts handed to the pack/unpack kernels.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/reduced_peers.hpp"

namespace {

using namespace haloflag::halo;

GeometrySpec paper_spec(std::int64_t cube) {
  GeometrySpec spec;
  spec.global_size = {cube, cube, cube};
  spec.ranks = 64;
  spec.divide = RankGrid{4, 4, 4};
  spec.periodic = {true, true, true};
  spec.vars = 3;
  return spec;
}

template <class Error, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no exception of the expected type>";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << text << "' lacks '" << part << "'";
}

TEST(ConfigFromGeometry, CarriesDataAndGeometryRecords) {
  const Geometry geometry(paper_spec(200));
  const ExchangeConfig config = make_exchange_config(geometry);
  EXPECT_EQ(config.ranks, 64);
  ASSERT_TRUE(config.data.has_value());
  EXPECT_EQ(*config.data, (MessageData{3, 8, {}}));
  ASSERT_TRUE(config.geometry.has_value());
  EXPECT_EQ(config.geometry->divide, (RankGrid{4, 4, 4}));
  EXPECT_FALSE(config.geometry->reduced_from_rank.has_value());
  EXPECT_EQ(geometry_spec_of(config), geometry.spec());
}

TEST(ConfigFromGeometry, AutoDivideIsRecordedResolved) {
  GeometrySpec spec = paper_spec(200);
  spec.divide.reset();
  spec.ranks = 8;
  const ExchangeConfig config = make_exchange_config(Geometry(spec));
  EXPECT_EQ(config.geometry->divide, (RankGrid{2, 2, 2}));
}

TEST(ConfigFromGeometry, RankMessagesFollowNeighbourOrderAndTagRule) {
  const Geometry geometry(paper_spec(200));
  const RankMessages messages = rank_messages(geometry, 21);
  const auto neighbours = geometry.neighbours(21);
  ASSERT_EQ(messages.sends.size(), neighbours.size());
  for (std::size_t i = 0; i < neighbours.size(); ++i) {
    EXPECT_EQ(messages.sends[i].tag, static_cast<int>(i));
    EXPECT_EQ(messages.recvs[i].tag, 25 - static_cast<int>(i));
    EXPECT_EQ(messages.sends[i].peer, neighbours[i].peer);
    EXPECT_EQ(messages.sends[i].boxes.front(), neighbours[i].send_box);
    EXPECT_EQ(messages.recvs[i].boxes.front(), neighbours[i].recv_box);
  }
}

TEST(TwoRankConfig, BothRanksSendAndReceive26MessagesToEachOther) {
  for (const std::int64_t cube : {200, 400, 800}) {
    const Geometry geometry(paper_spec(cube));
    const ExchangeConfig config = make_two_rank_config(geometry, 21);
    EXPECT_EQ(config.ranks, 2);
    ASSERT_TRUE(config.geometry.has_value());
    EXPECT_EQ(config.geometry->reduced_from_rank, 21);
    const std::int64_t sub = cube / 4;
    for (int rank = 0; rank < 2; ++rank) {
      const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
      EXPECT_EQ(messages.field_extent, (Index3{sub + 2, sub + 2, sub + 2}));
      ASSERT_EQ(messages.sends.size(), 26u);
      ASSERT_EQ(messages.recvs.size(), 26u);
      std::map<std::int64_t, int> sizes;
      std::set<int> send_tags;
      std::set<int> recv_tags;
      for (const Message& m : messages.sends) {
        EXPECT_EQ(m.peer, 1 - rank);
        ++sizes[m.bytes];
        send_tags.insert(m.tag);
      }
      for (const Message& m : messages.recvs) {
        EXPECT_EQ(m.peer, 1 - rank);
        recv_tags.insert(m.tag);
      }
      EXPECT_EQ(sizes, (std::map<std::int64_t, int>{
                           {sub * sub * 24, 6}, {sub * 24, 12}, {24, 8}}));
      EXPECT_EQ(send_tags.size(), 26u);
      EXPECT_EQ(recv_tags.size(), 26u);
    }
    // The other rank's send with my receive's tag has my receive's size.
    for (const Message& recv : config.rank_messages[0].recvs) {
      int matches = 0;
      for (const Message& send : config.rank_messages[1].sends) {
        if (send.tag == recv.tag) {
          ++matches;
          EXPECT_EQ(send.bytes, recv.bytes);
          EXPECT_EQ(send.boxes.front().cells(), recv.boxes.front().cells());
        }
      }
      EXPECT_EQ(matches, 1);
    }
    EXPECT_EQ(geometry_spec_of(config), geometry.spec());
  }
}

TEST(TwoRankConfig, RejectsBoundaryAndOutOfRangeSourceRanks) {
  GeometrySpec spec = paper_spec(200);
  spec.periodic = {false, false, false};
  const Geometry geometry(spec);
  expect_contains(error_of<GeometryError>([&] { make_two_rank_config(geometry, 0); }),
                  "source rank 0 has 7 of 26 neighbours");
  expect_contains(error_of<GeometryError>([&] { make_two_rank_config(geometry, 64); }),
                  "source rank 64 is out of range [0, 64)");
  EXPECT_NO_THROW(make_two_rank_config(geometry, 21));
}

TEST(ReducedPeers, MaskIsNonzeroAndTheSameForOppositeDirections) {
  for (const int ranks : {2, 4, 8}) {
    for (int index = 0; index < kDirectionCount; ++index) {
      const Direction d = direction_from_index(index);
      const int mask = reduced_peer_mask(ranks, d);
      EXPECT_GT(mask, 0) << ranks << " ranks, " << direction_name(d);
      EXPECT_LT(mask, ranks) << ranks << " ranks, " << direction_name(d);
      EXPECT_EQ(mask, reduced_peer_mask(ranks, opposite(d))) << direction_name(d);
    }
    EXPECT_EQ(reduced_peer_mask(ranks, Direction{}), 0);
  }
}

TEST(ReducedPeers, EightRanksAreAPeriodicTwoByTwoByTwoGrid) {
  GeometrySpec spec;
  spec.global_size = {4, 4, 4};
  spec.ranks = 8;
  spec.divide = RankGrid{2, 2, 2};
  spec.periodic = {true, true, true};
  const Geometry grid(spec);
  for (int rank = 0; rank < 8; ++rank) {
    for (int index = 0; index < kDirectionCount; ++index) {
      const Direction d = direction_from_index(index);
      EXPECT_EQ(reduced_peer(rank, 8, d), grid.peer(rank, d)) << rank << " " << direction_name(d);
    }
  }
}

// For 2, 4 and 8 ranks: every send meets one receive at its peer with the same tag, bytes and
// cell count, and the other way round; nobody sends to itself; each rank has ranks - 1 peers.
TEST(ReducedConfig, EverySendMeetsOneReceiveAtItsPeer) {
  for (const std::int64_t cube : {200, 800}) {
    const Geometry geometry(paper_spec(cube));
    for (const int ranks : {2, 4, 8}) {
      const ExchangeConfig config = make_reduced_config(geometry, 21, ranks);
      const std::string name = std::to_string(cube) + " on " + std::to_string(ranks) + " ranks";
      ASSERT_EQ(config.ranks, ranks) << name;
      ASSERT_EQ(config.rank_messages.size(), static_cast<std::size_t>(ranks)) << name;
      EXPECT_EQ(config.geometry->reduced_from_rank, 21) << name;
      EXPECT_EQ(config.geometry->reduced_ranks, ranks) << name;
      EXPECT_EQ(geometry_spec_of(config), geometry.spec()) << name;
      for (int rank = 0; rank < ranks; ++rank) {
        const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
        ASSERT_EQ(messages.sends.size(), 26u) << name;
        ASSERT_EQ(messages.recvs.size(), 26u) << name;
        std::set<int> peers;
        std::set<std::pair<int, int>> send_keys;
        for (const Message& send : messages.sends) {
          EXPECT_NE(send.peer, rank) << name << ": rank " << rank << " sends to itself";
          ASSERT_TRUE(send.peer >= 0 && send.peer < ranks) << name;
          peers.insert(send.peer);
          EXPECT_TRUE(send_keys.emplace(send.peer, send.tag).second)
              << name << ": rank " << rank << " sends tag " << send.tag << " twice to "
              << send.peer;
          int matches = 0;
          for (const Message& recv :
               config.rank_messages[static_cast<std::size_t>(send.peer)].recvs) {
            if (recv.peer != rank || recv.tag != send.tag) continue;
            ++matches;
            EXPECT_EQ(recv.bytes, send.bytes) << name;
            EXPECT_EQ(recv.boxes.front().cells(), send.boxes.front().cells()) << name;
          }
          EXPECT_EQ(matches, 1) << name << ": rank " << rank << " tag " << send.tag;
        }
        EXPECT_EQ(peers.size(), static_cast<std::size_t>(ranks - 1)) << name;
        // Receives are as many as sends and unique per (peer, tag), so the distinct sends
        // matched above pair every receive too.
        std::set<std::pair<int, int>> recv_keys;
        for (const Message& recv : messages.recvs) recv_keys.emplace(recv.peer, recv.tag);
        EXPECT_EQ(recv_keys.size(), messages.recvs.size()) << name;
      }
    }
  }
}

TEST(ReducedConfig, TwoRanksAreTheTwoRankConfig) {
  const Geometry geometry(paper_spec(400));
  EXPECT_TRUE(make_reduced_config(geometry, 42, 2) == make_two_rank_config(geometry, 42));
}

TEST(ReducedConfig, RejectsRankCountsOtherThanTwoFourOrEight) {
  const Geometry geometry(paper_spec(200));
  for (const int ranks : {-2, 0, 1, 3, 6, 16}) {
    expect_contains(error_of<GeometryError>([&] { make_reduced_config(geometry, 21, ranks); }),
                    "cannot reduce to " + std::to_string(ranks) +
                        " ranks: a reduced config has 2, 4 or 8 ranks");
  }
  expect_contains(error_of<GeometryError>([&] { make_reduced_config(geometry, 64, 8); }),
                  "cannot reduce to 8 ranks: source rank 64 is out of range [0, 64)");
}

TEST(GeometrySpecOf, NeedsTheRecords) {
  ExchangeConfig config;
  config.ranks = 1;
  expect_contains(error_of<ConfigError>([&] { geometry_spec_of(config); }),
                  "no geometry or data record");
}

TEST(MessageLayouts, BackToBackOffsetsStridesAndBytes) {
  const Geometry geometry(paper_spec(200));
  const MessageLayouts layouts = make_message_layouts(geometry, 5);
  const RankMessages messages = rank_messages(geometry, 5);
  ASSERT_EQ(layouts.sends.size(), 26u);
  ASSERT_EQ(layouts.recvs.size(), 26u);
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < layouts.sends.size(); ++i) {
    const auto& layout = layouts.sends[i];
    EXPECT_EQ(layout.buffer_offset, offset);
    EXPECT_EQ(layout.bytes(), messages.sends[i].bytes);
    EXPECT_EQ(layout.box_count, 1);
    EXPECT_EQ(layout.variable_count, 3);
    EXPECT_EQ(layout.uniform_bytes, 8);
    offset += layout.bytes();
  }
  EXPECT_EQ(layouts.send_buffer_bytes, offset);
  EXPECT_EQ(offset, 6 * 60000 + 12 * 1200 + 8 * 24);
  EXPECT_EQ(layouts.recv_buffer_bytes, offset);
}

// A geometry of mixed types (a float, a double and an int16 per cell): every message's bytes are
// its cells times 14, and each variable's section follows the one before.
TEST(MessageLayouts, MixedElementTypesGiveEachVariableItsSection) {
  GeometrySpec spec = paper_spec(200);
  spec.element_bytes = 4;
  spec.variable_bytes = {4, 8, 2};
  const Geometry geometry(spec);
  const ExchangeConfig config = make_exchange_config(geometry);
  EXPECT_EQ(config.data->cell_bytes(), 14);
  const MessageLayouts layouts = make_message_layouts(config, 5);
  const RankMessages& messages = config.rank_messages[5];
  for (std::size_t i = 0; i < layouts.sends.size(); ++i) {
    const auto& layout = layouts.sends[i];
    const std::int64_t cells = messages.sends[i].boxes[0].cells();
    EXPECT_EQ(layout.bytes(), cells * 14);
    EXPECT_EQ(messages.sends[i].bytes, cells * 14);
    EXPECT_EQ(layout.section_offset(2), cells * 12);
    EXPECT_EQ(layout.uniform_bytes, 0);
  }
  GeometrySpec wrong_count = spec;
  wrong_count.variable_bytes = {4, 8};
  expect_contains(error_of<GeometryError>([&] { Geometry{wrong_count}; }),
                  "the element sizes per variable give 2 sizes for 3 variables");
}

TEST(MessageLayouts, ErrorsNameRankPeerAndTag) {
  const Geometry geometry(paper_spec(200));
  const ExchangeConfig good = make_exchange_config(geometry);

  expect_contains(error_of<ConfigError>([&] { make_message_layouts(good, 64); }),
                  "rank 64 is out of range [0, 64)");
  expect_contains(error_of<GeometryError>([&] { make_message_layouts(geometry, -1); }),
                  "rank -1 is out of range");

  ExchangeConfig no_data = good;
  no_data.data.reset();
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(no_data, 0); }),
                  "rank 0: the config has no data record");

  ExchangeConfig wide = good;
  wide.data->element_bytes = 20;
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(wide, 0); }),
                  "rank 0: variable 0 has 20-byte elements; an element holds 1 to 16 bytes");

  ExchangeConfig too_many_vars = good;
  too_many_vars.data->vars = 17;
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(too_many_vars, 0); }),
                  "17 variables exceed");

  ExchangeConfig no_field = good;
  no_field.rank_messages[3].field_extent.reset();
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(no_field, 3); }),
                  "rank 3: the config gives no field extent");

  ExchangeConfig no_boxes = good;
  no_boxes.rank_messages[2].sends[4].boxes.clear();
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(no_boxes, 2); }),
                  "rank 2 send peer=" + std::to_string(good.rank_messages[2].sends[4].peer) +
                      " tag=4: the message has no boxes");

  ExchangeConfig many_boxes = good;
  auto& boxes = many_boxes.rank_messages[2].recvs[0].boxes;
  boxes.assign(9, haloflag::kernels::Box{{0, 0, 0}, {1, 1, 1}});
  many_boxes.rank_messages[2].recvs[0].bytes = 9 * 24;
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(many_boxes, 2); }),
                  "tag=25: 9 boxes exceed the layout capacity of 8");

  ExchangeConfig wrong_bytes = good;
  wrong_bytes.rank_messages[1].sends[0].bytes = 48;
  expect_contains(error_of<ConfigError>([&] { make_message_layouts(wrong_bytes, 1); }),
                  "tag=0: boxes hold 24 bytes but the message declares 48");
}

}  // namespace
