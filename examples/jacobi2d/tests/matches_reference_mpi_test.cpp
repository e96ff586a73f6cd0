// Every variant of the 2-D Jacobi equals the single-device reference bit for bit, and its norms
// match the reference's, on whatever number of ranks mpiexec starts (the rows split unevenly at
// 2 and 4): float and double, the norm every iteration and every third, the peers over node
// (one host) and over MPI; the resident kernel's boundary rows updated inside its sends or first,
// and its interior dealt away from the blocks that move send pieces.
//
// The backend comes from HALOFLAG_TEST_BACKEND (host when unset); a GPU backend without a GPU
// skips every case, saying why.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "gpu_jacobi2d.hpp"
#include "haloflag/examples/test_backend.hpp"
#include "haloflag/examples/test_run.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"
#include "reference.hpp"
#include "variant.hpp"

namespace {

namespace hx = haloflag::examples;
using namespace jacobi2d;
using haloflag::halo::Progress;
using haloflag::halo::Transport;
using haloflag::notify::Backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kIterations = 9;  // odd: the result ends in the second field

// Why this run cannot use its backend ("" when it can), and the ranks sharing its GPU: the
// binding done once, with the example's kernels loaded (haloflag/examples/test_backend.hpp).
const hx::TestBackendSetup& backend_setup() {
  return hx::test_backend_setup(load_gpu_kernels);
}

const std::string& backend_unavailable() { return backend_setup().unavailable; }

// 13 rows: 11 updated, 6 + 5 at 2 ranks and 3 + 3 + 3 + 2 at 4. 12 columns: rows of whole
// 16-byte groups in either type (row_sweep.hpp); 11: cell by cell.
Problem test_problem(Precision precision, std::int64_t nx = 12) {
  return make_problem(nx, 13, world_size(), precision);
}

RunSettings test_settings(int nccheck) {
  RunSettings settings;
  settings.backend = hx::test_backend();
  settings.timeout = std::chrono::seconds(60);
  settings.nccheck = nccheck;
  settings.max_iterations = kIterations;
  settings.gpu_threads = 128;
  settings.gpu_sharers = backend_setup().gpu_sharers;
  settings.progress = hx::mpi_thread_multiple() ? Progress::thread : Progress::caller;
  return settings;
}

// A run of 5 iterations first, so the checked run starts from later epochs; a failure inside a
// run ends the job at once (the other ranks would wait for their deadline).
CheckResult run_and_check(Variant& variant, const Problem& problem, const RunSettings& settings) {
  const Reference reference = run_reference(problem, world_rank(), settings, kIterations);
  hx::run_or_abort(std::string(to_string(variant.kind())), [&] {
    variant.reset();
    variant.run(5);
    variant.reset();
    variant.run(kIterations);
  });
  EXPECT_EQ(variant.norms().size(), static_cast<std::size_t>(norm_checks(kIterations, settings.nccheck)));
  return check_against_reference(MPI_COMM_WORLD, problem, variant.current_rows(), variant.norms(),
                                 reference);
}

using Case = std::tuple<VariantKind, Precision, int>;

class EveryVariant : public testing::TestWithParam<Case> {};

TEST_P(EveryVariant, MatchesReferenceBitForBitWithItsNorms) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const auto [kind, precision, nccheck] = GetParam();
  const Problem problem = test_problem(precision);
  const RunSettings settings = test_settings(nccheck);
  auto variant = make_variant(kind, problem, MPI_COMM_WORLD, settings);
  const CheckResult result = run_and_check(*variant, problem, settings);
  EXPECT_TRUE(result.identical) << result.message;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" +
         std::string(to_string(std::get<1>(info.param))) + "_nccheck" +
         std::to_string(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    Jacobi2d, EveryVariant,
    testing::Combine(testing::Values(VariantKind::conventional_overlap, VariantKind::stream,
                                     VariantKind::resident),
                     testing::Values(Precision::float32, Precision::float64),
                     testing::Values(1, 3)),
    case_name);

// Every peer over MPI, rows updated cell by cell: the exchanges complete only while someone runs their CPU side, beside the
// host following the norms (a blocking reduction there would hold back a send a peer needs).
using MpiCase = std::tuple<VariantKind, Progress>;

class OverMpi : public testing::TestWithParam<MpiCase> {};

TEST_P(OverMpi, MatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const auto [kind, progress] = GetParam();
  if (progress == Progress::thread && !hx::mpi_thread_multiple()) {
    GTEST_SKIP() << hx::kNoThreadMultiple;
  }
  const Problem problem = test_problem(Precision::float32, 11);
  RunSettings settings = test_settings(1);
  settings.transport = Transport::mpi;
  settings.progress = progress;
  auto variant = make_variant(kind, problem, MPI_COMM_WORLD, settings);
  const CheckResult result = run_and_check(*variant, problem, settings);
  EXPECT_TRUE(result.identical) << result.message;
}

std::string mpi_case_name(const testing::TestParamInfo<MpiCase>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" +
         std::string(haloflag::halo::to_string(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(
    Jacobi2d, OverMpi,
    testing::Values(MpiCase{VariantKind::stream, Progress::caller},
                    MpiCase{VariantKind::stream, Progress::thread},
                    MpiCase{VariantKind::resident, Progress::caller},
                    MpiCase{VariantKind::conventional_overlap, Progress::caller}),
    mpi_case_name);

// The resident kernel's other routes: the build of the whole exchange with the node transport's
// lines (the other cases here take the build without), launched where a node peer takes lines;
// and each exchange announcing its fields at its start, where the other cases' finishes tell the
// node peers where the next exchange goes (NextExchange).
TEST(ResidentRoutes, LinesAndTheAnnounceAtTheStartMatchReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(Precision::float64);
  for (const bool lines : {true, false}) {
    RunSettings settings = test_settings(3);
    if (lines) settings.node_lines_up_to_bytes = std::int64_t{1} << 20;
    settings.next_exchange_told = lines;
    auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
    const CheckResult result = run_and_check(*variant, problem, settings);
    EXPECT_TRUE(result.identical)
        << (lines ? "lines: " : "announced at the start: ") << result.message;
  }
}

// The resident kernel's two orders of the boundary rows: inside the exchange's sends, which
// update the rows they send and add their changes to the norm, with no grid barrier before the
// start; and first, behind that barrier. Asked for, the sends update on every rank but one of a
// single row, which is in both sends (7 rows at 4 ranks: 2 + 1 + 1 + 1). Rows in 16-byte groups
// and cell by cell, the norm every iteration.
TEST(ResidentRoutes, SendsUpdatingTheRowsAndTheRowsFirstMatchReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  for (const auto& [nx, ny] : {std::pair<std::int64_t, std::int64_t>{12, 13}, {11, 13}, {12, 7}}) {
    const Problem problem = make_problem(nx, ny, world_size(), Precision::float32);
    for (const bool sends_update : {true, false}) {
      RunSettings settings = test_settings(1);
      settings.sends_update_cells = sends_update;
      auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
      EXPECT_EQ(variant->launch_description().find("its sends updating the rows") !=
                    std::string::npos,
                sends_update && problem.rows(world_rank()) >= 2)
          << variant->launch_description();
      const CheckResult result = run_and_check(*variant, problem, settings);
      EXPECT_TRUE(result.identical)
          << nx << " x " << ny << ", " << (sends_update ? "sends updating: " : "rows first: ")
          << result.message;
    }
  }
}

// The interior dealt to every block but those that move send pieces (interior_deal.hpp): a grid
// of 8 blocks (host threads on the host backend), of which the first one or two move the
// rank's two sends, takes the 1-3 interior rows of 12 columns in one round without them. The
// launch says so on every rank, and the fields and norms are the reference's.
TEST(ResidentRoutes, TheInteriorDealtAwayFromTheSendBlocksMatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(Precision::float32);
  RunSettings settings = test_settings(1);
  settings.host_team_threads = 8;
  settings.resident_blocks = 8;
  auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
  EXPECT_NE(variant->launch_description().find("the interior dealt to every block but the"),
            std::string::npos)
      << variant->launch_description();
  const CheckResult result = run_and_check(*variant, problem, settings);
  EXPECT_TRUE(result.identical) << result.message;
}

// A problem that cannot be split names the option and the numbers.
TEST(Problem, RefusesMoreRanksThanRows) {
  try {
    (void)make_problem(8, 4, 3, Precision::float32);
    FAIL() << "expected ProblemError";
  } catch (const ProblemError& error) {
    EXPECT_NE(std::string(error.what()).find("-ny 4 leaves 2 rows to update, fewer than the 3 "
                                             "ranks"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
