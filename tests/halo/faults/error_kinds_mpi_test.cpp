// One error hierarchy (haloflag/error.hpp) with real MPI ranks on the test's backend
// (HALOFLAG_TEST_BACKEND, host by default): every error the libraries throw is a haloflag::Error
// whose kind() names the cause, the documented catch clauses catch it, and a set-up that fails on
// one rank fails every rank with that rank's kind. The co-residency and GPU kinds arise only on
// a GPU backend; their tests skip, saying so, on the host.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "haloflag/error.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/errors.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::ErrorKind;
using haloflag::test::test_backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

struct Caught {
  bool thrown = false;
  ErrorKind kind = ErrorKind::other;
  std::string what;
};

// Runs `step`, catching only haloflag::Error, the hierarchy's documented base.
Caught caught(const std::function<void()>& step) {
  Caught result;
  try {
    step();
  } catch (const haloflag::Error& error) {
    result = {true, error.kind(), error.what()};
  }
  return result;
}

GeometrySpec cube(int cells = 16) {
  GeometrySpec spec;
  spec.global_size = {cells, cells, cells};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  return spec;
}

ExchangeOptions test_options(Strategy strategy = Strategy::resident) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = test_backend();
  options.timeout = std::chrono::seconds(2);
  return options;
}

// What building an Exchange over a 16^3 periodic cube with `options` throws.
Caught set_up_error(const ExchangeOptions& options) {
  const Geometry geometry(cube());
  DeviceFields fields(test_backend(), geometry.subdomain(world_rank()).field_extent, 1);
  return caught([&] { Exchange exchange(geometry, fields.view(), options); });
}

TEST(ErrorKinds, KindsNameTheirCause) {
  EXPECT_EQ(haloflag::to_string(ErrorKind::co_residency), "co_residency");
  EXPECT_EQ(haloflag::kind_of(std::invalid_argument("x")), ErrorKind::usage);
  EXPECT_EQ(haloflag::kind_of(std::runtime_error("x")), ErrorKind::other);
  EXPECT_EQ(haloflag::kind_of(ConfigError("x")), ErrorKind::config);
}

TEST(ErrorKinds, AGeometryThatCannotBeBuiltIsKindGeometry) {
  GeometrySpec spec = cube();
  spec.global_size = {0, 16, 16};
  const Caught c = caught([&] { (void)Geometry(spec); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::geometry) << c.what;
  // The library's own type still catches it.
  EXPECT_THROW((void)Geometry(spec), GeometryError);
}

// A config for another rank count: every rank's set-up fails as kind config, and catching
// ConfigError's kind works through the base.
TEST(ErrorKinds, AConfigForAnotherRankCountIsKindConfigOnEveryRank) {
  SKIP_WITHOUT_BACKEND();
  GeometrySpec spec = cube();
  spec.ranks = world_size() + 1;
  const Geometry geometry(spec);
  DeviceFields fields(test_backend(), {10, 10, 10}, 1);
  const Caught c = caught([&] { Exchange exchange(geometry, fields.view(), test_options()); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::config) << c.what;
}

// Only the last rank gives fields with no variables. Its own error, and every other rank's
// naming it, are kind config: the kind of the rank that failed.
TEST(ErrorKinds, ASetUpThatFailsOnOneRankHasThatRanksKindOnEveryRank) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry(cube());
  const int failing = world_size() - 1;
  DeviceFields fields(test_backend(), geometry.subdomain(world_rank()).field_extent, 1);
  haloflag::kernels::FieldSet view = fields.view();
  if (world_rank() == failing) view.variable_count = 0;
  const Caught c = caught([&] { Exchange exchange(geometry, view, test_options()); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::config) << c.what;
  if (world_rank() != failing) {
    EXPECT_NE(c.what.find("rank " + std::to_string(failing) + " failed to"), std::string::npos)
        << c.what;
  }
}

// The last rank never starts: its peers' exchanges end at the deadline, kind timeout; using the
// failed Exchange again is kind usage.
TEST(ErrorKinds, ADeadlineIsKindTimeoutAndReuseAfterItUsage) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry(cube());
  DeviceFields fields(test_backend(), geometry.subdomain(world_rank()).field_extent, 1);
  {
    Exchange exchange(geometry, fields.view(), test_options());
    if (world_rank() != world_size() - 1) {
      const Caught deadline = caught([&] { exchange.run(); });
      ASSERT_TRUE(deadline.thrown);
      EXPECT_EQ(deadline.kind, ErrorKind::timeout) << deadline.what;
      const Caught again = caught([&] { exchange.start(); });
      ASSERT_TRUE(again.thrown);
      EXPECT_EQ(again.kind, ErrorKind::usage) << again.what;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Calls the API does not allow now: a second start() while one runs, a moved-from Exchange,
// an abort.
TEST(ErrorKinds, CallsTheApiDoesNotAllowAreKindUsage) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry(cube());
  DeviceFields fields(test_backend(), geometry.subdomain(world_rank()).field_extent, 1);
  ExchangeOptions options = test_options(Strategy::stream_notify);
  options.timeout = std::chrono::seconds(30);
  Exchange exchange(geometry, fields.view(), options);
  exchange.start();
  const Caught twice = caught([&] { exchange.start(); });
  ASSERT_TRUE(twice.thrown);
  EXPECT_EQ(twice.kind, ErrorKind::usage) << twice.what;
  exchange.finish();
  Exchange moved = std::move(exchange);
  const Caught from_moved = caught([&] { exchange.run(); });  // NOLINT(bugprone-use-after-move)
  ASSERT_TRUE(from_moved.thrown);
  EXPECT_EQ(from_moved.kind, ErrorKind::usage) << from_moved.what;
  moved.run();
  moved.abort("the test gives up");
  const Caught aborted = caught([&] { moved.run(); });
  ASSERT_TRUE(aborted.thrown);
  EXPECT_EQ(aborted.kind, ErrorKind::usage) << aborted.what;
  MPI_Barrier(MPI_COMM_WORLD);
}

// An MPI call that fails: a null communicator (the test's MPI returns errors).
TEST(ErrorKinds, AFailedMpiCallIsKindMpi) {
  SKIP_WITHOUT_BACKEND();
  ExchangeOptions options = test_options();
  options.comm = MPI_COMM_NULL;
  const Caught c = set_up_error(options);
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::mpi) << c.what;
}

// The flag API's misuse and the model's and benchmarks' errors share the base too.
TEST(ErrorKinds, TheFlagApisMisuseIsKindUsage) {
  const Caught c = caught([] { (void)haloflag::notify::parse_backend("tpu"); });
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::usage) << c.what;
}

// A grid that cannot be resident at once: a stacked_notify launch of far more blocks than the
// GPU holds is refused at set-up, on every rank, as kind co-residency.
TEST(ErrorKinds, AGridThatCannotBeResidentIsKindCoResidency) {
  SKIP_UNLESS_GPU_BACKEND("the co-residency kind");
  ExchangeOptions options = test_options(Strategy::stacked_notify);
  options.advanced.launch.stacked_blocks = 1 << 20;
  const Caught c = set_up_error(options);
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::co_residency) << c.what;
  EXPECT_NE(c.what.find("stacked_notify asked for 1048576 blocks"), std::string::npos) << c.what;
}

// A launch shape the GPU cannot run (2048 threads per block) is refused at set-up as kind gpu.
TEST(ErrorKinds, ALaunchTheGpuCannotRunIsKindGpu) {
  SKIP_UNLESS_GPU_BACKEND("the GPU kind");
  ExchangeOptions options = test_options(Strategy::comb_fused);
  options.advanced.launch.fused_threads = 2048;
  const Caught c = set_up_error(options);
  ASSERT_TRUE(c.thrown);
  EXPECT_EQ(c.kind, ErrorKind::gpu) << c.what;
  EXPECT_NE(c.what.find("threads per block must be a multiple of 32 in [32, 1024] (got 2048)"),
            std::string::npos)
      << c.what;
}

}  // namespace
