// The calibration measurements run in-process under mpiexec (2 and 4 ranks) in a quick mode:
// every rank gets the same result, fitted values are positive, the JSON keeps the raw
// measurements beside the fits, and the merge turns them into a parameter file that reads back.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration_files.hpp"
#include "concurrent_bandwidth.hpp"
#include "haloflag/model/params_file.hpp"
#include "merge.hpp"
#include "pingpong.hpp"

namespace {

using namespace haloflag::model;
using namespace haloflag::model::calibration;
namespace fs = std::filesystem;
using Json = nlohmann::json;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

PingPongOptions quick_pingpong() {
  PingPongOptions options;
  options.sizes = power_of_two_sizes(8, 256 * 1024);
  options.iterations = 5;
  options.warmup = 1;
  options.quick = true;
  return options;
}

ConcurrentOptions quick_concurrent() {
  ConcurrentOptions options;
  options.sizes = {4096, 65536};
  options.window = 2;
  options.iterations = 3;
  options.warmup = 1;
  options.max_flows = 2;
  options.quick = true;
  return options;
}

// Every rank's copy of `value` equals rank 0's.
void expect_same_on_all_ranks(double value) {
  double low = 0.0;
  double high = 0.0;
  MPI_Allreduce(&value, &low, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &high, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(low, high);
}

TEST(CalibrationMpi, PingPongFitsPositiveValues) {
  const PingPongResult result = measure_pingpong(MPI_COMM_WORLD, quick_pingpong());
  ASSERT_EQ(result.timings.size(), quick_pingpong().sizes.size());
  for (const SizeTiming& t : result.timings) {
    EXPECT_GT(t.one_way_seconds.median, 0.0) << t.bytes;
    EXPECT_LE(t.one_way_seconds.p10, t.one_way_seconds.median);
    EXPECT_LE(t.one_way_seconds.median, t.one_way_seconds.p90);
    EXPECT_EQ(t.one_way_seconds.count, 5);
  }
  EXPECT_GT(result.fit.eager.params.alpha, 0.0);
  EXPECT_GT(result.fit.eager.params.beta, 0.0);
  EXPECT_GT(result.fit.rendezvous.params.alpha, 0.0);
  EXPECT_GT(result.fit.rendezvous.params.beta, 0.0);
  EXPECT_GT(result.fit.threshold_bytes, 0);
  expect_same_on_all_ranks(result.fit.eager.params.alpha);
  expect_same_on_all_ranks(result.timings.back().one_way_seconds.median);
  EXPECT_EQ(result.run.ranks, world_size());
  EXPECT_EQ(result.run.hosts.size(), static_cast<std::size_t>(world_size()));

  const Json json = Json::parse(pingpong_to_json(result));
  EXPECT_EQ(json["format"], "haloflag-calibration-pingpong");
  EXPECT_EQ(json["measurements"].size(), result.timings.size());
  EXPECT_TRUE(json["measurements"][0]["one_way"].contains("median_s"));
  EXPECT_TRUE(json["fit"]["eager"].contains("alpha"));
  EXPECT_TRUE(json["run"].contains("mpi_library"));
}

TEST(CalibrationMpi, GivenThresholdIsKept) {
  PingPongOptions options = quick_pingpong();
  options.threshold = 4096;
  const PingPongResult result = measure_pingpong(MPI_COMM_WORLD, options);
  EXPECT_EQ(result.fit.method, "given");
  EXPECT_EQ(result.fit.threshold_bytes, 4096);
  EXPECT_EQ(result.fit.eager.max_bytes, 4096);
  EXPECT_EQ(result.fit.rendezvous.min_bytes, 8192);
}

TEST(CalibrationMpi, ConcurrentBandwidthFitsPositiveRates) {
  const ConcurrentResult result = measure_concurrent_bandwidth(MPI_COMM_WORLD, quick_concurrent());
  EXPECT_EQ(result.pairs_available, world_size() / 2);
  EXPECT_EQ(result.flows_emulated, world_size() < 4);
  ASSERT_EQ(result.sizes.size(), 2u);
  for (const SizeBandwidth& size : result.sizes) {
    ASSERT_EQ(size.points.size(), 2u);  // max_flows 2: 2 pairs, or 2 emulated flows
    for (const FlowMeasurement& p : size.points) EXPECT_GT(p.bandwidth.median, 0.0);
    EXPECT_GT(size.fit.r_cb, 0.0);
    EXPECT_GT(size.fit.r_ci, 0.0);
    expect_same_on_all_ranks(size.fit.r_cb);
  }
  const Json json = Json::parse(concurrent_to_json(result));
  EXPECT_EQ(json["format"], "haloflag-calibration-concurrent");
  EXPECT_TRUE(json["sizes"][0]["fit"].contains("R_Cb"));
  EXPECT_EQ(json["sizes"][0]["measurements"].size(), 2u);
}

TEST(CalibrationMpi, BadOptionsThrowOnEveryRank) {
  PingPongOptions same_rank = quick_pingpong();
  same_rank.rank_b = 0;
  EXPECT_THROW(measure_pingpong(MPI_COMM_WORLD, same_rank), std::invalid_argument);
  PingPongOptions unsorted = quick_pingpong();
  unsorted.sizes = {64, 8};
  EXPECT_THROW(measure_pingpong(MPI_COMM_WORLD, unsorted), std::invalid_argument);
  ConcurrentOptions no_sizes = quick_concurrent();
  no_sizes.sizes.clear();
  EXPECT_THROW(measure_concurrent_bandwidth(MPI_COMM_WORLD, no_sizes), std::invalid_argument);
}

TEST(CalibrationMpi, MergeWritesAReadableParameterFile) {
  const PingPongResult pingpong = measure_pingpong(MPI_COMM_WORLD, quick_pingpong());
  const ConcurrentResult concurrent = measure_concurrent_bandwidth(MPI_COMM_WORLD, quick_concurrent());
  if (world_rank() != 0) return;

  const fs::path dir = fs::temp_directory_path() /
                       ("haloflag_calibration_mpi_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_text(dir / "pingpong.json", pingpong_to_json(pingpong));
  write_text(dir / "concurrent.json", concurrent_to_json(concurrent));

  MergeInputs inputs;
  inputs.pingpong = read_pingpong_fit(dir / "pingpong.json");
  inputs.concurrent = read_concurrent_fit(dir / "concurrent.json");
  inputs.pack_unpack = read_pack_unpack_table_file(
      fs::path(HALOFLAG_MODEL_PARAMS_DIR) / "pack_unpack_power9_v100.json");
  inputs.pack_unpack_source = "pack_unpack_power9_v100.json";
  inputs.mapping = RankMapping::consecutive(2, 1);
  const MachineParams params = merge_calibration(inputs);
  write_params_file(dir / "params.json", params);
  const MachineParams back = read_params_file(dir / "params.json");
  EXPECT_EQ(back.eager_threshold_bytes, pingpong.fit.threshold_bytes);
  EXPECT_EQ(back.intra_socket.eager, pingpong.fit.eager.params);
  EXPECT_GT(back.inter_node.rendezvous.r_cb, 0.0);
  EXPECT_GT(back.inter_node.rendezvous.r_ci, 0.0);
  EXPECT_FALSE(back.provenance.notes.empty());

  // Replacing one class of a base file keeps the others.
  MergeInputs over_base = inputs;
  over_base.pack_unpack.reset();
  over_base.base = read_params_file(fs::path(HALOFLAG_MODEL_PARAMS_DIR) / "power9_v100.json");
  over_base.base_source = "power9_v100.json";
  over_base.target = TargetClass::inter_socket;
  over_base.mapping.reset();
  const MachineParams mixed = merge_calibration(over_base);
  EXPECT_EQ(mixed.inter_node, over_base.base->inter_node);
  EXPECT_EQ(mixed.intra_socket, over_base.base->intra_socket);
  EXPECT_NE(mixed.inter_socket, over_base.base->inter_socket);
  EXPECT_EQ(mixed.pack_unpack, over_base.base->pack_unpack);
  EXPECT_EQ(mixed.mapping, over_base.base->mapping);

  // One class without a base has nothing for the others.
  MergeInputs one_class = inputs;
  one_class.target = TargetClass::inter_node;
  EXPECT_THROW(merge_calibration(one_class), std::invalid_argument);
  fs::remove_all(dir);
}

}  // namespace
