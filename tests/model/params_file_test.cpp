// Parameter files: the shipped Power9+V100 file holds the paper's values; files with a missing
// key, a bad rate, an unknown key, a wrong type, a bad table, a bad mapping or bad node transport
// terms are rejected with the file and key path named; the writer's output reads back equal.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"

#ifndef HALOFLAG_MODEL_PARAMS_DIR
#error "HALOFLAG_MODEL_PARAMS_DIR must name model/params"
#endif

namespace {

using namespace haloflag::model;
namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kParamsDir = HALOFLAG_MODEL_PARAMS_DIR;
const fs::path kPower9 = kParamsDir / "power9_v100.json";

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Json power9_json() { return Json::parse(read_text(kPower9)); }

// Parses the Power9 file after `edit`, expecting a ParamsError containing `message`.
void expect_rejected(const std::function<void(Json&)>& edit, const std::string& message) {
  Json json = power9_json();
  edit(json);
  try {
    parse_params(json.dump(), "power9_v100.json");
    ADD_FAILURE() << "accepted; expected: " << message;
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find(message), std::string::npos)
        << "expected '" << message << "' in:\n" << error.what();
  }
}

TEST(ParamsFile, ShippedPower9FileHoldsThePaperValues) {
  const MachineParams p = read_params_file(kPower9);
  EXPECT_EQ(p.intra_socket, ProtocolParams<PostalParams>::both({2.92e-6, 3.49e-11}));
  EXPECT_EQ(p.inter_socket, ProtocolParams<KModelParams>::both({3.41e-6, 8.41e9, 7.09e9}));
  EXPECT_EQ(p.inter_node.eager, (KModelParams{2.36e-6, 4.92e9, 2.31e9}));
  EXPECT_EQ(p.inter_node.rendezvous, (KModelParams{1.06e-5, 1.79e10, 2.22e10}));
  // 60000 B eager, 240000 B rendezvous.
  EXPECT_GE(p.eager_threshold_bytes, 60000);
  EXPECT_LT(p.eager_threshold_bytes, 240000);
  ASSERT_TRUE(p.mapping.has_value());
  EXPECT_EQ(*p.mapping, RankMapping::consecutive(4, 2));

  const auto& points = p.pack_unpack.points();
  ASSERT_EQ(points.size(), 4u);
  const std::int64_t sizes[] = {24, 60000, 240000, 960000};
  const double pack_us[] = {1.75, 3.98, 17.30, 79.10};
  const double unpack_us[] = {5.54, 12.00, 30.40, 105.0};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(points[i].bytes, sizes[i]);
    EXPECT_NEAR(points[i].pack_seconds, pack_us[i] * 1e-6, 1e-15);
    EXPECT_NEAR(points[i].unpack_seconds, unpack_us[i] * 1e-6, 1e-15);
  }
  EXPECT_NE(p.provenance.source.find("Elis"), std::string::npos);
  EXPECT_FALSE(p.provenance.machine.empty());
  EXPECT_FALSE(p.provenance.date.empty());
  EXPECT_FALSE(p.provenance.units.empty());
}

TEST(ParamsFile, WriterOutputReadsBackEqual) {
  const MachineParams original = read_params_file(kPower9);
  EXPECT_EQ(parse_params(params_to_json(original), "round trip"), original);

  const fs::path path =
      fs::temp_directory_path() / ("haloflag_params_test_" + std::to_string(::getpid()) + ".json");
  MachineParams changed = original;
  changed.mapping = RankMapping::explicit_locations({{0, 0}, {0, 1}, {1, 0}});
  changed.intra_socket.rendezvous.beta = 1e-11;  // now two sets
  changed.provenance.notes.clear();
  write_params_file(path, changed);
  EXPECT_EQ(read_params_file(path), changed);
  // Equal sets are written once, different ones as eager/rendezvous.
  const Json written = Json::parse(read_text(path));
  EXPECT_TRUE(written["intra_socket"].contains("eager"));
  EXPECT_TRUE(written["inter_socket"].contains("alpha"));
  EXPECT_FALSE(written["provenance"].contains("notes"));
  fs::remove(path);
}

TEST(ParamsFile, MissingKeysAreNamed) {
  expect_rejected([](Json& j) { j["inter_node"]["rendezvous"].erase("R_Ci"); },
                  "power9_v100.json: inter_node.rendezvous.R_Ci: missing key");
  expect_rejected([](Json& j) { j["intra_socket"].erase("beta"); },
                  "power9_v100.json: intra_socket.beta: missing key");
  expect_rejected([](Json& j) { j.erase("eager_threshold_bytes"); },
                  "power9_v100.json: eager_threshold_bytes: missing key");
  expect_rejected([](Json& j) { j["provenance"].erase("date"); },
                  "power9_v100.json: provenance.date: missing key");
  expect_rejected([](Json& j) { j.erase("pack_unpack"); }, "pack_unpack: missing key");
  expect_rejected([](Json& j) { j["pack_unpack"][1].erase("unpack_us"); },
                  "pack_unpack[1].unpack_us: missing key");
  expect_rejected([](Json& j) { j["inter_node"].erase("rendezvous"); },
                  "inter_node.rendezvous: missing key");
  expect_rejected([](Json& j) { j.erase("format"); }, "format: missing key");
}

TEST(ParamsFile, NegativeOrZeroRatesAreNamed) {
  expect_rejected([](Json& j) { j["inter_node"]["rendezvous"]["R_Ci"] = -1; },
                  "power9_v100.json: inter_node.rendezvous.R_Ci: must be > 0 (got -1)");
  expect_rejected([](Json& j) { j["inter_socket"]["R_Cb"] = 0; },
                  "power9_v100.json: inter_socket.R_Cb: must be > 0 (got 0)");
  expect_rejected([](Json& j) { j["intra_socket"]["alpha"] = -2.9e-6; },
                  "intra_socket.alpha: must be > 0");
  expect_rejected([](Json& j) { j["pack_unpack"][0]["pack_us"] = 0.0; },
                  "pack_unpack[0].pack_us: must be > 0");
  expect_rejected([](Json& j) { j["eager_threshold_bytes"] = -5; },
                  "eager_threshold_bytes: must be >= 0 (got -5)");
}

TEST(ParamsFile, UnknownKeysAreNamed) {
  expect_rejected([](Json& j) { j["intra_socket"]["gamma"] = 1.0; },
                  "power9_v100.json: intra_socket.gamma: unknown key (expected: alpha, beta, eager, "
                  "rendezvous)");
  expect_rejected([](Json& j) { j["inter_node"]["eager"]["R_Cx"] = 1.0; },
                  "inter_node.eager.R_Cx: unknown key");
  expect_rejected([](Json& j) { j["threshold"] = 1; }, "power9_v100.json: threshold: unknown key");
  expect_rejected([](Json& j) { j["pack_unpack"][2]["pack_ms"] = 1.0; },
                  "pack_unpack[2].pack_ms: unknown key");
  expect_rejected([](Json& j) { j["provenance"]["author"] = "x"; },
                  "provenance.author: unknown key");
  // A single-set class given an extra protocol set mixes both forms.
  expect_rejected([](Json& j) { j["intra_socket"]["eager"] = {{"alpha", 1e-6}, {"beta", 1e-10}}; },
                  "intra_socket.rendezvous: missing key");
}

TEST(ParamsFile, WrongTypesAreNamed) {
  expect_rejected([](Json& j) { j["intra_socket"]["alpha"] = "fast"; },
                  "intra_socket.alpha: must be a number (got string \"fast\")");
  expect_rejected([](Json& j) { j["eager_threshold_bytes"] = 65536.5; },
                  "eager_threshold_bytes: must be an integer (got 65536.5)");
  expect_rejected([](Json& j) { j["inter_node"] = 5; }, "inter_node: must be an object (got 5)");
  expect_rejected([](Json& j) { j["pack_unpack"] = Json::object(); },
                  "pack_unpack: must be an array");
  expect_rejected([](Json& j) { j["provenance"]["notes"] = {1, 2}; },
                  "provenance.notes[0]: must be a string");
  expect_rejected([](Json& j) { j["version"] = 2; }, "version: must be 1 (got 2)");
  expect_rejected([](Json& j) { j["format"] = "something-else"; },
                  "format: must be \"haloflag-model-params\"");
}

TEST(ParamsFile, TableSizesMustIncreaseStrictly) {
  expect_rejected([](Json& j) { std::swap(j["pack_unpack"][1], j["pack_unpack"][2]); },
                  "pack_unpack[2].bytes: sizes must be strictly increasing (60000 after 240000)");
  expect_rejected([](Json& j) { j["pack_unpack"][2]["bytes"] = 60000; },
                  "pack_unpack[2].bytes: duplicate size 60000 (also entry 1)");
  expect_rejected([](Json& j) { j["pack_unpack"] = Json::array(); },
                  "pack_unpack: must hold at least one entry");
  expect_rejected([](Json& j) { j["pack_unpack"][0]["bytes"] = 0; },
                  "pack_unpack[0].bytes: must be >= 1");
}

TEST(ParamsFile, BadMappingsAreNamed) {
  expect_rejected([](Json& j) { j["mapping"]["ranks_per_node"] = 3; },
                  "mapping.ranks_per_node: 3 is not a multiple of ranks_per_socket (2)");
  expect_rejected([](Json& j) { j["mapping"]["placement"] = "round_robin"; },
                  "mapping.placement: must be \"consecutive\" or \"explicit\"");
  expect_rejected([](Json& j) { j["mapping"]["nodes"] = 0; }, "mapping.nodes: must be >= 1");
  expect_rejected(
      [](Json& j) { j["mapping"] = {{"placement", "explicit"}, {"locations", {{0, 0}, {1}}}}; },
      "mapping.locations[1]: must be [node, socket]");
  // The mapping itself is optional.
  Json json = power9_json();
  json.erase("mapping");
  EXPECT_FALSE(parse_params(json.dump(), "no mapping").mapping.has_value());
}

TEST(ParamsFile, EveryProblemIsReported) {
  Json json = power9_json();
  json["inter_node"]["rendezvous"]["R_Ci"] = -1;
  json["intra_socket"]["gamma"] = 1;
  json.erase("eager_threshold_bytes");
  try {
    parse_params(json.dump(), "power9_v100.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_EQ(error.problems().size(), 3u) << error.what();
  }
}

TEST(ParamsFile, UnreadableFilesAreNamed) {
  try {
    parse_params("{ \"format\": ", "broken.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("broken.json: not valid JSON"), std::string::npos);
  }
  try {
    read_params_file("/nonexistent/params.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/params.json: cannot open"),
              std::string::npos);
  }
  try {
    parse_params("[1, 2]", "array.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("array.json: (top level): must be an object"),
              std::string::npos);
  }
}

Json with_node_transport(Json json) {
  json["node_transport"] = {{"copy_bandwidth_bytes_per_s", 2.5e11},
                            {"copy_latency_s", 1.5e-6},
                            {"flag_latency_s", 0.8e-6}};
  return json;
}

TEST(ParamsFile, NodeTransportIsOptional) {
  const MachineParams without = read_params_file(kPower9);
  EXPECT_FALSE(without.node_transport.has_value());
  EXPECT_FALSE(Json::parse(params_to_json(without)).contains("node_transport"));
  try {
    require_node_transport(without, "power9_v100.json");
    FAIL() << "accepted a file without node_transport";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("power9_v100.json: node_transport: missing key"),
              std::string::npos)
        << error.what();
  }
}

TEST(ParamsFile, NodeTransportIsReadAndWritten) {
  const MachineParams p = parse_params(with_node_transport(power9_json()).dump(), "node.json");
  ASSERT_TRUE(p.node_transport.has_value());
  EXPECT_EQ(*p.node_transport, (NodeTransportParams{1.5e-6, 2.5e11, 0.8e-6}));
  EXPECT_NO_THROW(require_node_transport(p, "node.json"));
  // Everything else is read as without it.
  MachineParams stripped = p;
  stripped.node_transport.reset();
  EXPECT_EQ(stripped, read_params_file(kPower9));
  // The writer keeps it, and it reads back equal.
  const std::string written = params_to_json(p);
  EXPECT_EQ(parse_params(written, "round trip"), p);
  EXPECT_DOUBLE_EQ(Json::parse(written)["node_transport"]["copy_latency_s"].get<double>(), 1.5e-6);
}

// Parses the Power9 file with a node_transport object, after `edit` of that object.
void expect_node_transport_rejected(const std::function<void(Json&)>& edit,
                                    const std::string& message) {
  expect_rejected(
      [&](Json& j) {
        j = with_node_transport(j);
        edit(j["node_transport"]);
      },
      message);
}

TEST(ParamsFile, BadNodeTransportIsNamed) {
  expect_node_transport_rejected([](Json& n) { n.erase("flag_latency_s"); },
                                 "power9_v100.json: node_transport.flag_latency_s: missing key");
  expect_node_transport_rejected(
      [](Json& n) { n["copy_bandwidth_bytes_per_s"] = 0; },
      "power9_v100.json: node_transport.copy_bandwidth_bytes_per_s: must be > 0 (got 0)");
  expect_node_transport_rejected([](Json& n) { n["copy_latency_s"] = -1e-6; },
                                 "power9_v100.json: node_transport.copy_latency_s: must be > 0");
  expect_node_transport_rejected(
      [](Json& n) { n["flag_latency_s"] = "fast"; },
      "power9_v100.json: node_transport.flag_latency_s: must be a number (got string \"fast\")");
  expect_node_transport_rejected(
      [](Json& n) { n["copy_latency_us"] = 1.5; },
      "power9_v100.json: node_transport.copy_latency_us: unknown key (expected: "
      "copy_bandwidth_bytes_per_s, copy_latency_s, flag_latency_s)");
  expect_rejected([](Json& j) { j["node_transport"] = 5; },
                  "power9_v100.json: node_transport: must be an object (got 5)");
  // Every bad term is reported, not only the first.
  Json json = with_node_transport(power9_json());
  json["node_transport"]["copy_latency_s"] = 0;
  json["node_transport"]["flag_latency_s"] = -1;
  try {
    parse_params(json.dump(), "power9_v100.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_EQ(error.problems().size(), 2u) << error.what();
  }
  // A number too large for a double (an infinite term) is not valid JSON.
  const std::string text = with_node_transport(power9_json()).dump();
  const std::string infinite = std::regex_replace(
      text, std::regex("\"flag_latency_s\":[^,}]+"), "\"flag_latency_s\":1e400");
  ASSERT_NE(infinite, text);
  try {
    parse_params(infinite, "power9_v100.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("power9_v100.json: not valid JSON"), std::string::npos)
        << error.what();
  }
}

TEST(PackUnpackTableFile, ShippedTableMatchesTheParamsFile) {
  const PackUnpackTableFile table = read_pack_unpack_table_file(kParamsDir / "pack_unpack_power9_v100.json");
  EXPECT_EQ(table.table, read_params_file(kPower9).pack_unpack);
  EXPECT_EQ(parse_pack_unpack_table(pack_unpack_table_to_json(table), "round trip"), table);
}

TEST(PackUnpackTableFile, ProblemsAreNamed) {
  Json json = Json::parse(read_text(kParamsDir / "pack_unpack_power9_v100.json"));
  json["entries"][3]["unpack_us"] = -105;
  json["entries"][0]["extra"] = 1;
  try {
    parse_pack_unpack_table(json.dump(), "table.json");
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("table.json: entries[3].unpack_us: must be > 0 (got -105)"), std::string::npos) << what;
    EXPECT_NE(what.find("table.json: entries[0].extra: unknown key"), std::string::npos) << what;
  }
}

}  // namespace

namespace {

Json with_schedule(Json json) {
  const Json kernel = {{"latency_s", 1.2e-5}, {"bytes_per_s", 4.8e10}};
  json["schedule"] = {{"launch_sync_s", 9.4e-6},
                      {"graph_launch_sync_s", 6.6e-6},
                      {"host_flag_s", 1.65e-6},
                      {"fused",
                       {{"pack_pinned", kernel},
                        {"unpack_pinned", kernel},
                        {"pack_device", kernel},
                        {"unpack_device", kernel}}},
                      {"mpi_copy", {{"latency_s", 3e-6}, {"seconds_per_byte", 1e-10}}},
                      {"fixed_s", {{"resident", {{"mpi", 3e-5}, {"node", 0}}},
                                   {"comb_fused", {{"mpi", 6e-5}}}}},
                      {"node_grid", {{"resident", {{"bytes_per_s", 9e10}}}}}};
  return json;
}

void expect_schedule_rejected(const std::function<void(Json&)>& edit, const std::string& message) {
  expect_rejected(
      [&](Json& j) {
        j = with_schedule(j);
        edit(j["schedule"]);
      },
      message);
}

}  // namespace

TEST(ParamsFile, ScheduleIsReadAndWritten) {
  EXPECT_FALSE(read_params_file(kPower9).schedule.has_value());
  const MachineParams p = parse_params(with_schedule(power9_json()).dump(), "schedule.json");
  ASSERT_TRUE(p.schedule.has_value());
  EXPECT_DOUBLE_EQ(p.schedule->launch_sync, 9.4e-6);
  EXPECT_DOUBLE_EQ(p.schedule->host_flag, 1.65e-6);
  EXPECT_EQ(p.schedule->fused.unpack_device, (FusedKernelTime{1.2e-5, 4.8e10}));
  EXPECT_EQ(p.schedule->mpi_copy, (PostalParams{3e-6, 1e-10}));
  ASSERT_EQ(p.schedule->fixed.size(), 2u);
  EXPECT_EQ(p.schedule->fixed.at("resident"), (FixedCost{3e-5, 0.0}));
  EXPECT_EQ(p.schedule->fixed.at("comb_fused"), (FixedCost{6e-5, -1.0}));  // node: not measured
  ASSERT_EQ(p.schedule->node_grid.size(), 1u);
  EXPECT_EQ(p.schedule->node_grid.at("resident"), 9e10);
  EXPECT_EQ(parse_params(params_to_json(p), "round trip"), p);
}

TEST(ParamsFile, BadScheduleIsNamed) {
  expect_schedule_rejected([](Json& s) { s.erase("launch_sync_s"); },
                           "power9_v100.json: schedule.launch_sync_s: missing key");
  expect_schedule_rejected(
      [](Json& s) { s["fused"]["pack_pinned"]["bytes_per_s"] = -1; },
      "power9_v100.json: schedule.fused.pack_pinned.bytes_per_s: must be > 0 (got -1)");
  expect_schedule_rejected([](Json& s) { s["fused"].erase("unpack_device"); },
                           "power9_v100.json: schedule.fused.unpack_device: missing key");
  expect_schedule_rejected([](Json& s) { s["fixed_s"]["warp_drive"] = {{"mpi", 1e-5}}; },
                           "power9_v100.json: schedule.fixed_s.warp_drive: not a strategy with a "
                           "prediction");
  expect_schedule_rejected([](Json& s) { s["fixed_s"]["embedded"] = {{"mpi", 1e-5}}; },
                           "power9_v100.json: schedule.fixed_s.embedded: not a strategy");
  expect_schedule_rejected([](Json& s) { s["fixed_s"]["resident"]["mpi"] = -2e-6; },
                           "power9_v100.json: schedule.fixed_s.resident.mpi: must be a number >= 0");
  expect_schedule_rejected([](Json& s) { s["fixed_s"]["resident"]["infiniband"] = 1e-6; },
                           "power9_v100.json: schedule.fixed_s.resident.infiniband: unknown key");
  expect_schedule_rejected([](Json& s) { s["mpi_copy"]["seconds_per_byte"] = 0; },
                           "power9_v100.json: schedule.mpi_copy.seconds_per_byte: must be > 0");
  expect_schedule_rejected(
      [](Json& s) { s["node_grid"]["comb_fused"] = {{"bytes_per_s", 1e9}}; },
      "power9_v100.json: schedule.node_grid.comb_fused: not a flag strategy");
  expect_schedule_rejected([](Json& s) { s["node_grid"]["resident"]["bytes_per_s"] = 0; },
                           "power9_v100.json: schedule.node_grid.resident.bytes_per_s: must be > 0");
  expect_schedule_rejected([](Json& s) { s["node_grid"]["resident"]["latency_s"] = 0; },
                           "power9_v100.json: schedule.node_grid.resident.latency_s: unknown key");
  expect_schedule_rejected([](Json& s) { s["flag_us"] = 1.5; },
                           "power9_v100.json: schedule.flag_us: unknown key");
}

TEST(ParamsFile, SlowestShapeTimesAreOptionalAndAtLeastThePooled) {
  Json json = power9_json();
  json["pack_unpack"][1]["pack_slowest_us"] = 9.5;
  json["pack_unpack"][1]["unpack_slowest_us"] = 20.0;
  const MachineParams p = parse_params(json.dump(), "slowest.json");
  const PackUnpackPoint& point = p.pack_unpack.points()[1];
  EXPECT_DOUBLE_EQ(point.pack_slowest_seconds, 9.5e-6);
  EXPECT_DOUBLE_EQ(p.pack_unpack.pack_slowest_time(point.bytes).seconds, 9.5e-6);
  // Where none was measured the pooled time stands in.
  const PackUnpackPoint& first = p.pack_unpack.points()[0];
  EXPECT_DOUBLE_EQ(p.pack_unpack.unpack_slowest_time(first.bytes).seconds, first.unpack_seconds);
  EXPECT_EQ(parse_params(params_to_json(p), "round trip"), p);
  expect_rejected([](Json& j) { j["pack_unpack"][1]["pack_slowest_us"] = 0.5; },
                  "power9_v100.json: pack_unpack[1].pack_slowest_us: must be >= the pooled time");
}
