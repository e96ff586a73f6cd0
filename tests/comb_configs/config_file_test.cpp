// The config text format: the shipped files parse and have the paper's message sizes, configs
// survive write -> parse unchanged, and malformed files are rejected with "file:line: reason".
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/geometry.hpp"
#include "run_command.hpp"

#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name the folder of the shipped configs"
#endif

namespace {

namespace fs = std::filesystem;
using namespace haloflag::halo;

const fs::path kConfigDir = HALOFLAG_COMB_CONFIG_DIR;

const std::vector<std::string> kShippedConfigs = {
    "comb_200_np64.cfg",         "comb_400_np64.cfg",         "comb_800_np64.cfg",
    "comb_200_np2_reduced.cfg",  "comb_400_np2_reduced.cfg",  "comb_800_np2_reduced.cfg",
    "comb_200_np4_reduced.cfg",  "comb_400_np4_reduced.cfg",  "comb_800_np4_reduced.cfg",
    "comb_200_np8_reduced.cfg",  "comb_400_np8_reduced.cfg",  "comb_800_np8_reduced.cfg",
    "comb_200_np4.cfg",          "comb_200_np8.cfg"};

// A fresh folder per test process, removed at the end.
class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("haloflag_config_test_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const TempDir& temp_dir() {
  static const TempDir dir;
  return dir;
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path path = temp_dir().path() / name;
  std::ofstream(path) << text;
  return path;
}

TEST(ShippedConfigs, AllArePresentAndParse) {
  std::set<std::string> on_disk;
  for (const auto& entry : fs::directory_iterator(kConfigDir)) {
    if (entry.path().extension() == ".cfg") on_disk.insert(entry.path().filename().string());
  }
  EXPECT_EQ(on_disk, std::set<std::string>(kShippedConfigs.begin(), kShippedConfigs.end()));
  for (const std::string& name : kShippedConfigs) {
    const fs::path path = kConfigDir / name;
    EXPECT_NO_THROW(read_config_file(path)) << name;
    EXPECT_LT(fs::file_size(path), 1'000'000u) << name << " is too large";
  }
}

struct Table2Row {
  std::int64_t cube;
  std::int64_t face;
  std::int64_t edge;
  std::int64_t vertex;
};
const Table2Row kTable2[] = {{200, 60000, 1200, 24}, {400, 240000, 2400, 24},
                             {800, 960000, 4800, 24}};

std::map<std::int64_t, int> count_sizes(const std::vector<Message>& messages) {
  std::map<std::int64_t, int> counts;
  for (const Message& m : messages) ++counts[m.bytes];
  return counts;
}

TEST(ShippedConfigs, SixtyFourRankFilesHave26MessagesPerRankOfTable2Sizes) {
  for (const Table2Row& row : kTable2) {
    const std::string name = "comb_" + std::to_string(row.cube) + "_np64.cfg";
    const ExchangeConfig config = read_config_file(kConfigDir / name);
    ASSERT_EQ(config.ranks, 64) << name;
    ASSERT_TRUE(config.geometry && config.data) << name;
    EXPECT_EQ(config.geometry->divide, (RankGrid{4, 4, 4})) << name;
    EXPECT_EQ(config.geometry->global_size, (Index3{row.cube, row.cube, row.cube})) << name;
    EXPECT_EQ(*config.data, (MessageData{3, 8, {}})) << name;
    const std::map<std::int64_t, int> expected{{row.face, 6}, {row.edge, 12}, {row.vertex, 8}};
    for (int rank = 0; rank < 64; ++rank) {
      const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
      EXPECT_EQ(count_sizes(messages.sends), expected) << name << " rank " << rank << " sends";
      EXPECT_EQ(count_sizes(messages.recvs), expected) << name << " rank " << rank << " recvs";
    }
  }
}

// Rank 21 of the 64-rank run replayed by 2, 4 and 8 ranks: 26 sends and receives of Table 2's
// sizes per rank, to 1, 3 or 7 peers.
TEST(ShippedConfigs, ReducedFilesHave26SendsAnd26ReceivesPerRank) {
  for (const Table2Row& row : kTable2) {
    for (const int ranks : {2, 4, 8}) {
      const std::string name = "comb_" + std::to_string(row.cube) + "_np" +
                               std::to_string(ranks) + "_reduced.cfg";
      const ExchangeConfig config = read_config_file(kConfigDir / name);
      ASSERT_EQ(config.ranks, ranks) << name;
      ASSERT_TRUE(config.geometry.has_value()) << name;
      EXPECT_EQ(config.geometry->reduced_from_rank, 21) << name;
      EXPECT_EQ(config.geometry->reduced_ranks, ranks) << name;
      const std::map<std::int64_t, int> expected{{row.face, 6}, {row.edge, 12}, {row.vertex, 8}};
      for (int rank = 0; rank < ranks; ++rank) {
        const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
        EXPECT_EQ(count_sizes(messages.sends), expected) << name << " rank " << rank;
        EXPECT_EQ(count_sizes(messages.recvs), expected) << name << " rank " << rank;
        std::set<int> tags;
        std::set<int> peers;
        for (const Message& m : messages.sends) {
          tags.insert(m.tag);
          peers.insert(m.peer);
        }
        EXPECT_EQ(tags.size(), 26u) << name;
        EXPECT_EQ(peers.size(), static_cast<std::size_t>(ranks - 1)) << name << " rank " << rank;
        EXPECT_FALSE(peers.contains(rank)) << name << " rank " << rank;
      }
    }
  }
}

// The two-rank files predate reduced_ranks: their geometry line still goes without it.
TEST(ShippedConfigs, OnlyReductionsToMoreThanTwoRanksRecordTheirRankCount) {
  for (const std::string& name : kShippedConfigs) {
    const std::string text = haloflag::test::read_text(kConfigDir / name);
    const bool recorded = text.find(" reduced_ranks=") != std::string::npos;
    const bool more_than_two = name.ends_with("_reduced.cfg") && !name.ends_with("np2_reduced.cfg");
    EXPECT_EQ(recorded, more_than_two) << name;
  }
}

TEST(ShippedConfigs, FilesEqualWhatTheLibraryBuildsFromTheirGeometry) {
  for (const std::string& name : kShippedConfigs) {
    const ExchangeConfig config = read_config_file(kConfigDir / name);
    const Geometry geometry(geometry_spec_of(config));
    const ExchangeConfig rebuilt =
        config.geometry->reduced_from_rank
            ? make_reduced_config(geometry, *config.geometry->reduced_from_rank,
                                  config.geometry->reduced_ranks)
            : make_exchange_config(geometry);
    EXPECT_TRUE(rebuilt == config) << name;
  }
  EXPECT_EQ(read_config_file(kConfigDir / "comb_200_np4.cfg").ranks, 4);
  EXPECT_EQ(read_config_file(kConfigDir / "comb_200_np8.cfg").ranks, 8);
}

ExchangeConfig round_trip(const ExchangeConfig& config) {
  std::stringstream text;
  write_config(text, config, "a comment\nover two lines");
  return parse_config(text, "round-trip");
}

TEST(RoundTrip, WriteThenParseGivesTheSameConfig) {
  std::vector<GeometrySpec> specs;
  GeometrySpec spec;
  spec.global_size = {200, 200, 200};
  spec.ranks = 64;
  spec.periodic = {true, true, true};
  spec.vars = 3;
  specs.push_back(spec);
  spec.global_size = {13, 11, 9};
  spec.ranks = 6;
  spec.periodic = {false, true, false};
  spec.ghost = {2, 1, 2};
  spec.vars = 1;
  specs.push_back(spec);
  spec.stencil = Stencil::faces6;
  spec.element_bytes = 4;
  specs.push_back(spec);
  for (const GeometrySpec& s : specs) {
    const Geometry geometry(s);
    const ExchangeConfig config = make_exchange_config(geometry);
    EXPECT_TRUE(round_trip(config) == config);
  }
  GeometrySpec paper;
  paper.global_size = {400, 400, 400};
  paper.ranks = 64;
  paper.periodic = {true, true, true};
  paper.vars = 3;
  for (const int ranks : {2, 4, 8}) {
    const ExchangeConfig reduced = make_reduced_config(Geometry(paper), 42, ranks);
    EXPECT_TRUE(round_trip(reduced) == reduced) << ranks << " ranks";
  }
}

TEST(RoundTrip, ConfigsWithoutBoxesOrRecordsToo) {
  ExchangeConfig config;  // sizes and peers only, as the paper extracted them from Comb
  config.ranks = 3;
  config.rank_messages.resize(3);
  for (int rank = 0; rank < 3; ++rank) {
    for (int peer = 0; peer < 3; ++peer) {
      const int tag = 7 + rank * 3 + peer;
      config.rank_messages[static_cast<std::size_t>(rank)].sends.push_back(
          Message{peer, tag, 100 + tag, {}});
      const int their_tag = 7 + peer * 3 + rank;
      config.rank_messages[static_cast<std::size_t>(rank)].recvs.push_back(
          Message{peer, their_tag, 100 + their_tag, {}});
    }
  }
  EXPECT_TRUE(round_trip(config) == config);
}

TEST(RoundTrip, ShippedFileTextIsWhatTheWriterProduces) {
  const fs::path path = kConfigDir / "comb_200_np8.cfg";
  std::ifstream in(path);
  std::string file_text;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("#")) file_text += line + "\n";
  }
  std::stringstream written;
  write_config(written, read_config_file(path));
  EXPECT_EQ(written.str(), file_text);
}

// --- Malformed files ---------------------------------------------------------------------------

// A valid two-rank config; each malformed case edits it.
const std::vector<std::string> kValidLines = {
    "# two ranks, one message each way",              // 1
    "haloflag-comb-config 1",                         // 2
    "ranks 2",                                        // 3
    "data vars=1 element_bytes=8",                    // 4
    "rank 0 field=4,4,4",                             // 5
    "send peer=1 tag=0 bytes=32 box=1,1,1:2,2,1",     // 6
    "recv peer=1 tag=1 bytes=32 box=1,1,0:2,2,1",     // 7
    "rank 1 field=4,4,4   # trailing comment",        // 8
    "send peer=0 tag=1 bytes=32 box=1,1,1:2,2,1",     // 9
    "recv peer=0 tag=0 bytes=32 box=1,1,3:2,2,1",     // 10
};

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

struct Malformed {
  std::string name;
  std::function<void(std::vector<std::string>&)> edit;
  int line;            // the line the problem must name
  std::string reason;  // a part of the reason
};

void set(std::vector<std::string>& lines, int line, const std::string& text) {
  lines[static_cast<std::size_t>(line - 1)] = text;
}
void insert(std::vector<std::string>& lines, int before_line, const std::string& text) {
  lines.insert(lines.begin() + (before_line - 1), text);
}

std::vector<Malformed> malformed_cases() {
  using L = std::vector<std::string>;
  return {
      {"unknown_keyword", [](L& l) { set(l, 6, "sned peer=1 tag=0 bytes=32"); }, 6,
       "unknown keyword 'sned'"},
      {"missing_field", [](L& l) { set(l, 9, "send peer=0 tag=1"); }, 9,
       "missing field 'bytes' in 'send' line"},
      {"extra_field", [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=32 tag=1"); }, 9,
       "extra field: 'tag' given twice"},
      {"unknown_field", [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=32 colour=red"); }, 9,
       "unknown field 'colour' in 'send' line"},
      {"not_key_value", [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=32 extra"); }, 9,
       "expected key=value in 'send' line, got 'extra'"},
      {"non_numeric", [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=3x2"); }, 9,
       "non-numeric value '3x2' for 'bytes'"},
      {"negative", [](L& l) { set(l, 7, "recv peer=-1 tag=1 bytes=32"); }, 7,
       "negative value -1 for 'peer'"},
      {"zero_bytes", [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=0"); }, 9,
       "'bytes' must be positive, got 0"},
      {"huge_value", [](L& l) { set(l, 3, "ranks 99999999999999999999"); }, 3,
       "value 99999999999999999999 for 'ranks' is too large"},
      {"wrong_version", [](L& l) { set(l, 2, "haloflag-comb-config 2"); }, 2,
       "unsupported format version 2"},
      {"missing_header", [](L& l) { l.erase(l.begin() + 1); }, 2, "missing header"},
      {"header_not_first", [](L& l) { std::swap(l[1], l[2]); }, 3,
       "the header must be the first line that is not a comment"},
      {"rank_out_of_range", [](L& l) { set(l, 8, "rank 2 field=4,4,4"); }, 8,
       "rank section 2 out of range: 'ranks 2' allows 0..1"},
      {"rank_duplicated", [](L& l) { set(l, 8, "rank 0 field=4,4,4"); }, 8,
       "duplicate rank section 0 (first on line 5)"},
      {"rank_missing", [](L& l) { l.resize(7); }, 3, "rank 1 has no section"},
      {"rank_number_missing", [](L& l) { set(l, 8, "rank field=4,4,4"); }, 8,
       "'rank' needs the rank number"},
      {"peer_out_of_range", [](L& l) { set(l, 9, "send peer=5 tag=1 bytes=32"); }, 9,
       "peer 5 out of range: 'ranks 2' allows 0..1"},
      {"duplicate_send_tag", [](L& l) { insert(l, 7, "send peer=1 tag=0 bytes=32"); }, 7,
       "duplicate tag: rank 0 sends to peer 1 with tag 0 twice (first on line 6)"},
      {"duplicate_recv_tag", [](L& l) { insert(l, 11, "recv peer=0 tag=0 bytes=32"); }, 11,
       "duplicate tag: rank 1 receives from peer 0 with tag 0 twice (first on line 10)"},
      {"unmatched_send", [](L& l) { insert(l, 7, "send peer=1 tag=5 bytes=8"); }, 7,
       "unmatched send: rank 0 sends 8 bytes to peer 1 with tag 5, but rank 1 has no recv "
       "peer=0 tag=5"},
      {"unmatched_recv", [](L& l) { insert(l, 11, "recv peer=0 tag=9 bytes=8"); }, 11,
       "unmatched recv: rank 1 receives from peer 0 with tag 9, but rank 0 has no send "
       "peer=1 tag=9"},
      {"bytes_mismatch", [](L& l) { set(l, 10, "recv peer=0 tag=0 bytes=40"); }, 6,
       "bytes mismatch: rank 0 sends 32 bytes to peer 1 with tag 0, but rank 1 expects 40 "
       "(line 10)"},
      {"box_bytes_inconsistent",
       [](L& l) { set(l, 9, "send peer=0 tag=1 bytes=40 box=1,1,1:2,2,1"); }, 9,
       "box bytes inconsistent with bytes=40: the boxes hold 4 cells x 1 vars x 8 bytes = 32"},
      {"box_outside_field", [](L& l) { set(l, 10, "recv peer=0 tag=0 bytes=32 box=1,1,4:2,2,1"); },
       10, "box reaches past the field along z: 4 + 1 > 4"},
      {"box_malformed", [](L& l) { set(l, 10, "recv peer=0 tag=0 bytes=32 box=1,1:2,2,1"); }, 10,
       "'box begin' needs three comma-separated values x,y,z, got '1,1'"},
      {"box_without_colon", [](L& l) { set(l, 10, "recv peer=0 tag=0 bytes=32 box=1,1,1"); }, 10,
       "box '1,1,1' must read BEGIN_X,BEGIN_Y,BEGIN_Z:EXTENT_X,EXTENT_Y,EXTENT_Z"},
      {"box_zero_extent", [](L& l) { set(l, 10, "recv peer=0 tag=0 bytes=32 box=1,1,1:2,0,1"); },
       10, "'box extent (y)' must be positive, got 0"},
      {"boxes_without_data", [](L& l) { l.erase(l.begin() + 3); }, 5,
       "boxes need the 'data vars=V element_bytes=B' line"},
      {"boxes_without_field", [](L& l) { set(l, 8, "rank 1"); }, 9,
       "boxes need the field extent: write 'rank 1 field=X,Y,Z' (line 8)"},
      {"message_outside_section", [](L& l) { insert(l, 5, "send peer=1 tag=3 bytes=8"); }, 5,
       "'send' line outside a rank section"},
      {"ranks_missing", [](L& l) { l.erase(l.begin() + 2); }, 4,
       "missing 'ranks N' line before the first rank section"},
      {"ranks_without_value", [](L& l) { set(l, 3, "ranks"); }, 3, "'ranks' takes one value"},
      {"header_line_after_sections", [](L& l) { insert(l, 8, "data vars=2 element_bytes=8"); }, 8,
       "'data' must come before the first rank section (line 5)"},
      {"repeated_ranks", [](L& l) { insert(l, 4, "ranks 2"); }, 4,
       "repeated 'ranks' line (first on line 3)"},
      {"tag_too_large", [](L& l) { set(l, 9, "send peer=0 tag=40000 bytes=32"); }, 9,
       "tag 40000 exceeds 32767"},
      {"geometry_ranks_disagree",
       [](L& l) {
         insert(l, 5, "geometry size=8,8,8 divide=4,4,4 periodic=1,1,1 ghost=1,1,1 stencil=26");
       },
       5, "divide=4,4,4 holds 64 ranks, but 'ranks' declares 2"},
      {"geometry_bad_stencil",
       [](L& l) {
         insert(l, 5, "geometry size=8,8,8 divide=2,1,1 periodic=1,1,1 ghost=1,1,1 stencil=27");
       },
       5, "'stencil' must be 26 or 6, got 27"},
      {"geometry_bad_periodic",
       [](L& l) {
         insert(l, 5, "geometry size=8,8,8 divide=2,1,1 periodic=1,2,1 ghost=1,1,1 stencil=26");
       },
       5, "value 2 for 'periodic (y)' is too large (at most 1)"},
      {"geometry_missing_field",
       [](L& l) { insert(l, 5, "geometry size=8,8,8 divide=2,1,1 periodic=1,1,1 stencil=26"); },
       5, "missing field 'ghost' in 'geometry' line"},
      {"reduced_needs_two_ranks",
       [](L& l) {
         set(l, 3, "ranks 3");
         insert(l, 5,
                "geometry size=8,8,8 divide=2,2,2 periodic=1,1,1 ghost=1,1,1 stencil=26 "
                "reduced_from_rank=9");
         l.push_back("rank 2");
       },
       5, "a config reduced from one rank's pattern has 2 ranks, but 'ranks' declares 3"},
      {"reduced_ranks_disagree",
       [](L& l) {
         insert(l, 5,
                "geometry size=8,8,8 divide=2,2,2 periodic=1,1,1 ghost=1,1,1 stencil=26 "
                "reduced_from_rank=3 reduced_ranks=4");
       },
       5, "a config reduced from one rank's pattern has 4 ranks, but 'ranks' declares 2"},
      {"reduced_ranks_not_two_four_or_eight",
       [](L& l) {
         insert(l, 5,
                "geometry size=8,8,8 divide=2,2,2 periodic=1,1,1 ghost=1,1,1 stencil=26 "
                "reduced_from_rank=3 reduced_ranks=3");
       },
       5, "'reduced_ranks' must be 2, 4 or 8, got 3"},
      {"reduced_ranks_without_source_rank",
       [](L& l) {
         insert(l, 5,
                "geometry size=8,8,8 divide=2,1,1 periodic=1,1,1 ghost=1,1,1 stencil=26 "
                "reduced_ranks=2");
       },
       5, "'reduced_ranks' needs 'reduced_from_rank'"},
  };
}

class MalformedConfig : public testing::TestWithParam<Malformed> {};

TEST_P(MalformedConfig, IsRejectedWithFileLineAndReason) {
  const Malformed& c = GetParam();
  std::vector<std::string> lines = kValidLines;
  c.edit(lines);
  const fs::path path = write_file(c.name + ".cfg", join(lines));
  std::vector<std::string> problems;
  try {
    read_config_file(path);
    FAIL() << c.name << ": accepted";
  } catch (const ConfigError& e) {
    problems = e.problems();
    EXPECT_EQ(std::string(e.what()).find(problems.front()), 0u);
  }
  const std::string expected = path.string() + ":" + std::to_string(c.line) + ": ";
  const bool found = std::any_of(problems.begin(), problems.end(), [&](const std::string& p) {
    return p.starts_with(expected) && p.find(c.reason) != std::string::npos;
  });
  std::string all;
  for (const std::string& p : problems) all += "\n  " + p;
  EXPECT_TRUE(found) << "expected '" << expected << "..." << c.reason << "' among:" << all;
  for (const std::string& p : problems) {
    EXPECT_TRUE(p.starts_with(path.string() + ":")) << p;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, MalformedConfig, testing::ValuesIn(malformed_cases()),
                         [](const auto& named) { return named.param.name; });

TEST(MalformedConfigs, TheValidBaseIsAccepted) {
  const fs::path path = write_file("valid.cfg", join(kValidLines));
  const ExchangeConfig config = read_config_file(path);
  EXPECT_EQ(config.ranks, 2);
  EXPECT_EQ(config.rank_messages[1].recvs.at(0).boxes.at(0),
            (haloflag::kernels::Box{{1, 1, 3}, {2, 2, 1}}));
}

TEST(MalformedConfigs, AllProblemsAreCollectedInLineOrder) {
  std::vector<std::string> lines = kValidLines;
  set(lines, 9, "send peer=0 tag=1 bytes=abc");
  set(lines, 6, "sned peer=1 tag=0 bytes=32");
  set(lines, 3, "ranks 3");
  const fs::path path = write_file("many.cfg", join(lines));
  try {
    read_config_file(path);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const auto& problems = e.problems();
    ASSERT_GE(problems.size(), 4u) << e.what();
    EXPECT_TRUE(problems[0].starts_with(path.string() + ":3: rank 2 has no section")) << e.what();
    EXPECT_TRUE(problems[1].starts_with(path.string() + ":6: unknown keyword")) << e.what();
    EXPECT_TRUE(problems[2].starts_with(path.string() + ":9: non-numeric value 'abc'"))
        << e.what();
    // Rank 1 receives tag 0 from rank 0, whose send line was not understood.
    EXPECT_TRUE(problems[3].starts_with(path.string() + ":10: unmatched recv")) << e.what();
  }
}

TEST(MalformedConfigs, EmptyAndMissingFiles) {
  const fs::path empty = write_file("empty.cfg", "# nothing here\n\n");
  try {
    read_config_file(empty);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), empty.string() + ":1: empty config: expected the header "
                                                      "'haloflag-comb-config 1'");
  }
  const fs::path missing = temp_dir().path() / "does_not_exist.cfg";
  try {
    read_config_file(missing);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), missing.string() + ": cannot open the config file");
  }
}

}  // namespace
