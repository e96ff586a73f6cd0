// Every strategy through halo::Exchange with real MPI ranks: the shipped configs of this rank
// count and decompositions with 1 to 3 variables, periodic and not, ghost widths 1 and 2, each
// over many consecutive exchanges, with every ghost cell (and every cell that is sent) of every
// rank verified after every exchange, and the whole field after the last one. Values change
// with the epoch, so stale data is caught.
//
// The backend comes from HALOFLAG_TEST_BACKEND (host when unset; "cuda"/"hip" bind one GPU per
// node-local rank). A GPU backend without a GPU skips every case, saying why. The transport
// comes from HALOFLAG_TEST_TRANSPORT and HALOFLAG_TEST_NODE_SIZE (test_transport.hpp).
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "geometry_cases.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_timeline.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/notify/backend.hpp"

#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name the folder of the shipped configs"
#endif

namespace {

using namespace haloflag::halo;
using haloflag::notify::Backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;
using haloflag::test::GeometryCase;
using haloflag::test::geometry_cases;
using haloflag::test::make_geometry;
using haloflag::test::apply_test_transport;
using haloflag::test::test_backend;
using haloflag::test::test_transport_label;

constexpr int kExchanges = 50;
// The orders of work (long sends in turn, teams per long receive) run fewer exchanges per case:
// they multiply the geometry cases by their settings, and CI's 8-rank and sanitizer runs are long.
constexpr int kOrderExchanges = 10;

// The flag strategies' orders of work (ExchangeOptions) a test runs with.
struct MessageOrder {
  bool long_receives_on_arrival = false;
  bool long_sends_in_turn = false;
  int long_receive_blocks = 1;
  int long_send_blocks = 1;
  int message_threads = 1024;
  bool tuned = false;  // built by Exchange::tuned(): the order above is tune()'s starting point
};

// An Exchange built by Exchange::tuned() names the order it chose, the fastest of those it
// measured; a strategy with one order only (the bulk ones; stacked_notify without MPI peers) says
// there was nothing to tune.
void expect_tuning_reported(const Exchange& exchange, const std::string& label) {
  const TuningReport& report = exchange.tuning();
  const Strategy strategy = exchange.strategy();
  if (!report.tuned) {
    EXPECT_NE(report.reason.find("nothing to tune"), std::string::npos) << label << ": "
                                                                        << report.reason;
    EXPECT_FALSE(strategy == Strategy::stream_notify || strategy == Strategy::resident)
        << label << ": long sends at once or in turn is always a choice: " << report.reason;
    return;
  }
  EXPECT_TRUE(uses_flags(strategy)) << label;
  EXPECT_GE(report.candidates.size(), 2u) << label;
  EXPECT_EQ(report.summary().rfind("auto: " + report.chosen.describe(), 0), 0u)
      << label << ": " << report.summary();
  double chosen_us = -1.0;
  for (const TunedCandidate& candidate : report.candidates) {
    if (candidate.order == report.chosen) chosen_us = candidate.median_us;
  }
  ASSERT_GE(chosen_us, 0.0) << label << ": the chosen order was not measured";
  for (const TunedCandidate& candidate : report.candidates) {
    if (candidate.median_us >= 0.0) {
      // The fastest, or the given order when none beats it by more than the margin.
      EXPECT_LE(chosen_us, candidate.median_us / (1.0 - kTuningMargin))
          << label << ": " << candidate.order.describe();
    } else {
      EXPECT_FALSE(candidate.skipped_because.empty()) << label;
    }
  }
}

// Runs `exchanges` verified exchanges. Half use start() + progress() polling, half run(). An
// exchange error ends the job at once (every rank would otherwise wait for its deadline).
void run_verified(const ExchangeConfig& config, const ExchangeVerifier& verifier,
                  Strategy strategy, int exchanges, const std::string& label,
                  MessageOrder order = {}) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.advanced.long_receives_on_arrival = order.long_receives_on_arrival;
  options.advanced.long_sends_in_turn = order.long_sends_in_turn;
  options.advanced.launch.long_receive_blocks = order.long_receive_blocks;
  options.advanced.launch.long_send_blocks = order.long_send_blocks;
  options.advanced.launch.message_threads = order.message_threads;
  options.backend = test_backend();
  options.timeout = std::chrono::seconds(60);
  apply_test_transport(options);
  DeviceFields fields(options.backend, verifier.field_extent(), verifier.vars());
  HostField host(verifier.field_extent(), verifier.vars());
  std::string first_report;
  int wrong_exchanges = 0;
  try {
    Exchange exchange = order.tuned ? Exchange::tuned(config, fields.view(), options)
                                    : Exchange(config, fields.view(), options);
    if (order.tuned) expect_tuning_reported(exchange, label);
    for (int i = 0; i < exchanges; ++i) {
      const std::uint64_t epoch = exchange.epoch() + 1;
      if (i == 0) {
        verifier.fill(host, epoch);
      } else {
        verifier.refresh(host, epoch);
      }
      fields.upload(host);
      if (i % 2 == 0) {
        exchange.run();
      } else {
        exchange.start();
        // Yields between polls: up to 8 ranks share CI's 2 cores.
        while (!exchange.progress()) std::this_thread::yield();
      }
      EXPECT_EQ(exchange.epoch(), epoch);
      fields.download(host);
      // Every ghost cell every time; the whole field after the last exchange.
      const std::string report =
          i + 1 < exchanges ? verifier.check(host, epoch) : verifier.check_all(host, epoch);
      if (!report.empty() && wrong_exchanges++ == 0) first_report = report;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "[rank %d] %s, %s, %s: %s\n", world_rank(), label.c_str(),
                 std::string(to_string(strategy)).c_str(), test_transport_label().c_str(),
                 error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  EXPECT_EQ(wrong_exchanges, 0) << label << ", " << to_string(strategy) << ", "
                                << test_transport_label() << ", rank "
                                << world_rank() << ": " << wrong_exchanges << " of " << exchanges
                                << " exchanges wrong; first: " << first_report;
}

class EveryStrategy : public testing::TestWithParam<Strategy> {};

TEST_P(EveryStrategy, GeometriesStayCorrectOverManyExchanges) {
  SKIP_WITHOUT_BACKEND();
  for (const GeometryCase& c : geometry_cases()) {
    const Geometry geometry = make_geometry(c);
    run_verified(make_exchange_config(geometry), ExchangeVerifier(geometry, world_rank()),
                 GetParam(), kExchanges, c.name);
  }
}

// The shipped configs made for this rank count (the 200 cube; 400 and 800 have the same
// pattern with larger fields, exchanged fewer times to keep the host run short). On 4 and 8
// ranks also the cube-200 reduction, whose ranks each have 3 or 7 peers.
TEST_P(EveryStrategy, ShippedConfigsStayCorrectOverManyExchanges) {
  SKIP_WITHOUT_BACKEND();
  struct Shipped {
    std::string file;
    int exchanges;
  };
  std::vector<Shipped> shipped;
  const bool gpu = test_backend() != Backend::host;
  if (world_size() == 2) {
    shipped = {{"comb_200_np2_reduced.cfg", kExchanges},
               {"comb_400_np2_reduced.cfg", gpu ? kExchanges : 4},
               {"comb_800_np2_reduced.cfg", gpu ? 10 : 2}};
  } else if (world_size() == 4 || world_size() == 8) {
    // On the host backend the ranks share few cores: ten exchanges exercise every message.
    const std::string ranks = std::to_string(world_size());
    shipped = {{"comb_200_np" + ranks + ".cfg", gpu ? kExchanges : 10},
               {"comb_200_np" + ranks + "_reduced.cfg", gpu ? kExchanges : 10}};
  } else {
    GTEST_SKIP() << "no shipped config for " << world_size() << " ranks";
  }
  for (const Shipped& s : shipped) {
    const ExchangeConfig config =
        read_config_file(std::filesystem::path(HALOFLAG_COMB_CONFIG_DIR) / s.file);
    const auto verifier = ExchangeVerifier::for_config(config, world_rank());
    ASSERT_TRUE(verifier.has_value()) << s.file << " has no geometry record to verify against";
    run_verified(config, *verifier, GetParam(), s.exchanges, s.file);
  }
}

// Long receives posted as their messages arrive (AdvancedOptions::long_receives_on_arrival),
// on the same geometries; the bulk strategies always post every receive first.
TEST_P(EveryStrategy, LongReceivesPostedOnArrivalStayCorrect) {
  SKIP_WITHOUT_BACKEND();
  if (!uses_flags(GetParam())) {
    GTEST_SKIP() << "the bulk strategies post every receive first";
  }
  for (const GeometryCase& c : geometry_cases()) {
    const Geometry geometry = make_geometry(c);
    run_verified(make_exchange_config(geometry), ExchangeVerifier(geometry, world_rank()),
                 GetParam(), kExchanges, c.name + ", long receives posted on arrival",
                 MessageOrder{.long_receives_on_arrival = true});
  }
}

// Exchange::tuned() times the orders of work that apply (tune()) before it sets up the Exchange,
// which reports the choice, and its exchanges stay correct.
TEST_P(EveryStrategy, TunedOrderOfWorkIsReportedAndStaysCorrect) {
  SKIP_WITHOUT_BACKEND();
  const GeometryCase c = geometry_cases().front();
  const Geometry geometry = make_geometry(c);
  run_verified(make_exchange_config(geometry), ExchangeVerifier(geometry, world_rank()),
               GetParam(), kOrderExchanges, c.name + ", tuned",
               MessageOrder{.tuned = true});
}

// The geometries, and the shipped cube-200 config of this rank count when there is one.
std::vector<std::pair<ExchangeConfig, std::string>> geometries_and_shipped_200() {
  std::vector<std::pair<ExchangeConfig, std::string>> configs;
  for (const GeometryCase& c : geometry_cases()) {
    configs.emplace_back(make_exchange_config(make_geometry(c)), c.name);
  }
  const std::string shipped = world_size() == 2 ? "comb_200_np2_reduced.cfg"
                                                : "comb_200_np" + std::to_string(world_size()) +
                                                      ".cfg";
  const auto shipped_path = std::filesystem::path(HALOFLAG_COMB_CONFIG_DIR) / shipped;
  if (std::filesystem::exists(shipped_path)) {
    configs.emplace_back(read_config_file(shipped_path), shipped);
  }
  return configs;
}

// Long sends packed in turn by the team of their blocks (AdvancedOptions::long_sends_in_turn),
// the CPU testing receives between sends, with either receive order: on the geometries, and on
// the shipped cube-200 config of this rank count, whose six faces make a team of six blocks.
TEST_P(EveryStrategy, LongSendsInTurnStayCorrect) {
  SKIP_WITHOUT_BACKEND();
  if (!uses_flags(GetParam())) GTEST_SKIP() << "the bulk strategies pack in one kernel";
  for (const auto& [config, name] : geometries_and_shipped_200()) {
    const auto verifier = ExchangeVerifier::for_config(config, world_rank());
    ASSERT_TRUE(verifier.has_value()) << name << " cannot be verified";
    for (const bool on_arrival : {false, true}) {
      run_verified(config, *verifier, GetParam(), kOrderExchanges,
                   name + ", long sends in turn" + (on_arrival ? ", receives on arrival" : ""),
                   MessageOrder{.long_receives_on_arrival = on_arrival,
                                .long_sends_in_turn = true});
    }
  }
}

// Long receives unpacked by teams of blocks (LaunchSettings::long_receive_blocks): the own block
// of a long receive awaits it and relays the flag to helper blocks through device memory; with
// long sends in turn, helper blocks also join the team packing them (long_send_blocks). Only the
// stream kernels on a GPU have helper blocks.
TEST_P(EveryStrategy, LongReceivesUnpackedByTeamsStayCorrect) {
  SKIP_WITHOUT_BACKEND();
  if (GetParam() != Strategy::stream_notify && GetParam() != Strategy::resident) {
    GTEST_SKIP() << "only stream_notify and resident launch helper blocks";
  }
  if (test_backend() == Backend::host) {
    GTEST_SKIP() << "the host backend unpacks each receive with one block (no helper blocks)";
  }
  for (const auto& [config, name] : geometries_and_shipped_200()) {
    const auto verifier = ExchangeVerifier::for_config(config, world_rank());
    ASSERT_TRUE(verifier.has_value()) << name << " cannot be verified";
    for (const int blocks : {2, 4}) {
      for (const bool in_turn : {false, true}) {
        run_verified(config, *verifier, GetParam(), kOrderExchanges,
                     name + ", " + std::to_string(blocks) + " blocks per long receive" +
                         (in_turn ? " and per long send, long sends in turn, receives on arrival"
                                  : ""),
                     MessageOrder{.long_receives_on_arrival = in_turn,
                                  .long_sends_in_turn = in_turn,
                                  .long_receive_blocks = blocks,
                                  .long_send_blocks = in_turn ? blocks : 1,
                                  // Smaller blocks, so that the teams of two ranks sharing
                                  // one GPU fit on it together.
                                  .message_threads = 256});
      }
    }
  }
}

// A rank that never takes part: its peers' exchanges end with an error that names what is
// missing, within the deadline, and nothing hangs.
TEST_P(EveryStrategy, AbsentPeerEndsInADeadlineErrorNamingTheMessage) {
  SKIP_WITHOUT_BACKEND();
  if (world_size() < 2) GTEST_SKIP() << "needs a peer";
  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  const Geometry geometry(spec);
  ExchangeOptions options;
  options.strategy = GetParam();
  options.backend = test_backend();
  options.timeout = std::chrono::seconds(2);
  apply_test_transport(options);
  // Long receives are then not posted at all: the error must name them as well.
  options.advanced.long_receives_on_arrival = true;
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(options.backend, verifier.field_extent(), verifier.vars());
  {
    Exchange exchange(geometry, fields.view(), options);
    if (world_rank() != 0) {
      const auto started = std::chrono::steady_clock::now();
      std::string message;
      try {
        exchange.run();
      } catch (const ExchangeError& error) {
        message = error.what();
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      EXPECT_NE(message.find("rank " + std::to_string(world_rank())), std::string::npos) << message;
      EXPECT_NE(message.find("receive from peer 0 tag"), std::string::npos) << message;
      // The flag strategies post long receives when their message arrives; the error names
      // those that never did. On 2 ranks every message comes from the absent rank, long ones
      // included (on more ranks, rank 0 may send only short ones to this rank).
      // Over the node transport no receive is MPI's: the waits on the peer's flags name them.
      if (world_size() == 2 && exchange.peer_transports().front().transport == Transport::mpi) {
        const bool named = message.find("not arrived (its receive is posted on arrival)") !=
                           std::string::npos;
        EXPECT_EQ(named, uses_flags(GetParam())) << message;
      }
      EXPECT_LT(seconds, 20.0) << message;
      // The Exchange is unusable after a failure, and says so.
      EXPECT_THROW(exchange.start(), ExchangeError);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// The flag strategies pack every short send before any long MPI send starts (a flag behind the
// long sends' data would cross PCIe only after it): on the traced times of the blocks, every short
// send is packed before the first long send begins, in every exchange. Long sends packed in turn
// (always in stacked_notify; with long_sends_in_turn in the others) are signalled in message
// order: the block completing message i's count stamps it before it counts itself in for
// message i + 1, which the completer of i + 1 must observe.
TEST(FlagStrategies, LongSendsStartAfterEveryShortSendIsPacked) {
  SKIP_WITHOUT_BACKEND();
  GeometrySpec spec;
  spec.global_size = {16, 16, 16};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, world_rank());
  for (const auto& [strategy, in_turn] : std::vector<std::pair<Strategy, bool>>{
           {Strategy::stream_notify, false},
           {Strategy::stacked_notify, true},
           {Strategy::resident, false},
           {Strategy::stream_notify, true},
           {Strategy::resident, true}}) {
    ExchangeOptions options;
    options.strategy = strategy;
    options.backend = test_backend();
    options.timeout = std::chrono::seconds(60);
    // The order protects flags crossing PCIe behind long MPI sends' data; over the node
    // transport nothing crosses behind them, and the long sends do not wait.
    options.transport = Transport::mpi;
    options.trace = true;
    options.advanced.long_sends_in_turn = in_turn;
    DeviceFields fields(options.backend, verifier.field_extent(), verifier.vars());
    Exchange exchange(geometry, fields.view(), options);
    for (int i = 0; i < 10; ++i) {
      exchange.run();
      const ExchangeTimeline& timeline = exchange.last_timeline();
      ASSERT_TRUE(timeline.has_device_times || options.backend == Backend::host);
      std::int64_t largest = 0;
      for (const SendTimeline& send : timeline.sends) largest = std::max(largest, send.bytes);
      // The engine's default: messages of at least half the largest one are long.
      std::int64_t last_short_packed = kNotRecorded;
      std::int64_t first_long_begin = std::numeric_limits<std::int64_t>::max();
      std::int64_t previous_long_packed = kNotRecorded;
      int shorts = 0;
      int longs = 0;
      for (const SendTimeline& send : timeline.sends) {
        ASSERT_NE(send.pack_begin, kNotRecorded);
        ASSERT_NE(send.packed, kNotRecorded);
        if (send.bytes >= largest / 2) {
          ++longs;
          first_long_begin = std::min(first_long_begin, send.pack_begin);
          if (in_turn) {
            EXPECT_LE(previous_long_packed, send.packed)
                << to_string(strategy) << ", rank " << world_rank() << ", exchange " << i + 1
                << ": long send to peer " << send.peer << " tag " << send.tag
                << " was signalled before the long send ahead of it";
          }
          previous_long_packed = send.packed;
        } else {
          ++shorts;
          last_short_packed = std::max(last_short_packed, send.packed);
        }
      }
      ASSERT_GT(shorts, 0) << "the geometry must have short sends";
      ASSERT_GT(longs, 0) << "the geometry must have long sends";
      EXPECT_LE(last_short_packed, first_long_begin)
          << to_string(strategy) << (in_turn ? " (long sends in turn)" : "") << ", rank "
          << world_rank() << ", exchange " << i + 1
          << ": a long send began packing " << (last_short_packed - first_long_begin)
          << " ns before the last short send was packed";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy, testing::ValuesIn(all_strategies().begin(),
                                                                       all_strategies().end()),
                         [](const testing::TestParamInfo<Strategy>& param) {
                           return std::string(to_string(param.param));
                         });

// A config for another rank count is refused on every rank, before any exchange.
TEST(ExchangeSetUp, ConfigForAnotherRankCountIsRefusedEverywhere) {
  SKIP_WITHOUT_BACKEND();
  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = world_size() + 1;
  const ExchangeConfig config = make_exchange_config(Geometry(spec));
  ExchangeOptions options;
  options.backend = test_backend();
  apply_test_transport(options);
  DeviceFields fields(options.backend, {4, 4, 4}, 1);
  try {
    Exchange exchange(config, fields.view(), options);
    ADD_FAILURE() << "an Exchange was built from a config for " << spec.ranks << " ranks";
  } catch (const ExchangeError& error) {
    EXPECT_NE(std::string(error.what()).find("ranks"), std::string::npos) << error.what();
  }
}

}  // namespace
