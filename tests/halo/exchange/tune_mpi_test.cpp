// Tuning outside the constructor (haloflag/halo/tune.hpp), with real MPI ranks on the host
// backend: tune() returns fixed options that carry the order it chose, Exchange::tuned() builds
// an Exchange that reports the choice, and the constructor refuses Tuning::automatic on every
// rank with a ConfigError that says what to call instead.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>

#include "haloflag/error.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/tune.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::notify::Backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

// A 16^3 periodic cube over every rank: small enough that tuning's few hundred exchanges take
// well under a second on the host backend.
Geometry cube() {
  GeometrySpec spec;
  spec.global_size = {16, 16, 16};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  return Geometry(spec);
}

// Over MPI, so that the receive and send orders and the piece sizes are all candidates.
ExchangeOptions mpi_options(Strategy strategy) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = Backend::host;
  options.transport = Transport::mpi;
  options.timeout = std::chrono::seconds(30);
  return options;
}

// The order of work `options` run with, in the fields the report fills for MPI peers only.
WorkOrder order_over_mpi(const ExchangeOptions& options) {
  WorkOrder order = work_order_of(options);
  order.mpi_piece_bytes = options.advanced.mpi_piece_bytes;
  return order;
}

class Tune : public ::testing::Test {
 protected:
  Geometry geometry = cube();
  DeviceFields fields{Backend::host, geometry.subdomain(world_rank()).field_extent, 1};
};

TEST_F(Tune, ConstructorRefusesAutomaticTuningNamingTune) {
  ExchangeOptions options = mpi_options(Strategy::resident);
  options.tuning = Tuning::automatic;
  try {
    Exchange exchange(geometry, fields.view(), options);
    FAIL() << "rank " << world_rank() << ": the constructor accepted Tuning::automatic";
  } catch (const ConfigError& error) {
    const std::string what = error.what();
    EXPECT_EQ(error.kind(), haloflag::ErrorKind::config);
    EXPECT_EQ(what.rfind("rank " + std::to_string(world_rank()) + ": ", 0), 0u) << what;
    EXPECT_NE(what.find("haloflag::halo::tune("), std::string::npos) << what;
    EXPECT_NE(what.find("Exchange::tuned("), std::string::npos) << what;
  }
  // Every rank refused before any collective, so all still agree on what comes next.
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_F(Tune, ReturnsFixedOptionsWithTheChosenOrder) {
  ExchangeOptions options = mpi_options(Strategy::resident);
  options.tuning = Tuning::automatic;  // not read by tune()
  options.advanced.long_receives_on_arrival = false;
  const TunedOptions tuned = tune(geometry, fields.view(), options);
  EXPECT_EQ(tuned.options.tuning, Tuning::fixed);
  ASSERT_TRUE(tuned.report.tuned) << tuned.report.reason;
  EXPECT_GE(tuned.report.candidates.size(), 2u);
  EXPECT_EQ(order_over_mpi(tuned.options), tuned.report.chosen)
      << order_over_mpi(tuned.options).describe() << " vs " << tuned.report.chosen.describe();
  // Only the order of work changes.
  EXPECT_EQ(tuned.options.strategy, options.strategy);
  EXPECT_EQ(tuned.options.transport, options.transport);
  EXPECT_EQ(tuned.options.timeout, options.timeout);
  // The constructor takes them, and reports them as fixed: it ran no tuning of its own.
  Exchange exchange(geometry, fields.view(), tuned.options);
  EXPECT_FALSE(exchange.tuning().tuned);
  EXPECT_EQ(exchange.tuning().reason.rfind("fixed: ", 0), 0u) << exchange.tuning().reason;
  EXPECT_EQ(exchange.tuning().chosen, work_order_of(tuned.options));
  exchange.run();
}

TEST_F(Tune, TunedExchangeReportsTheChoice) {
  Exchange exchange = Exchange::tuned(geometry, fields.view(), mpi_options(Strategy::resident));
  const TuningReport& report = exchange.tuning();
  ASSERT_TRUE(report.tuned) << report.reason;
  EXPECT_EQ(report.summary().rfind("auto: " + report.chosen.describe(), 0), 0u)
      << report.summary();
  bool measured = false;
  for (const TunedCandidate& candidate : report.candidates) {
    measured = measured || (candidate.order == report.chosen && candidate.median_us >= 0.0);
  }
  EXPECT_TRUE(measured) << "rank " << world_rank() << ": the chosen order was not measured";
  exchange.run();
  EXPECT_EQ(exchange.epoch(), 1u);
}

TEST_F(Tune, BulkStrategyHasNothingToTune) {
  const ExchangeOptions options = mpi_options(Strategy::comb_fused);
  const TunedOptions tuned = tune(geometry, fields.view(), options);
  EXPECT_FALSE(tuned.report.tuned);
  EXPECT_NE(tuned.report.reason.find("nothing to tune"), std::string::npos) << tuned.report.reason;
  EXPECT_EQ(tuned.options.tuning, Tuning::fixed);
  EXPECT_EQ(work_order_of(tuned.options), tuned.report.chosen);
}

TEST_F(Tune, FixedConstructorReportsItsOwnOrder) {
  const ExchangeOptions options = mpi_options(Strategy::stream_notify);
  Exchange exchange(geometry, fields.view(), options);
  EXPECT_FALSE(exchange.tuning().tuned);
  EXPECT_EQ(exchange.tuning().chosen, work_order_of(options));
  EXPECT_EQ(exchange.tuning().reason, "fixed: " + work_order_of(options).describe());
}

}  // namespace
