// The distributed Jacobi equals the single-rank periodic reference bit for bit: every variant
// (conventional_overlap with both of its exchange strategies), both stencils, after many
// iterations, on whatever number of ranks mpiexec starts. The variants must also agree after a
// second run that continues from the first (epochs carry on, buffers have swapped), and after
// their update has been timed alone (run_updates_only) and the field reset.
//
// The backend comes from HALOFLAG_TEST_BACKEND (host when unset); a GPU backend without a GPU
// skips every case, saying why. The field's precision comes from HALOFLAG_TEST_PRECISION,
// float or double (double when unset); the reference is computed in the same precision, so
// float is checked bit for bit too.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "haloflag/examples/stream_variants_go_first.hpp"
#include "haloflag/examples/test_backend.hpp"
#include "haloflag/examples/test_run.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "gpu_jacobi.hpp"
#include "jacobi_variant.hpp"
#include "mpi_world.hpp"
#include "reference_check.hpp"

namespace {

namespace hx = haloflag::examples;
using namespace jacobi3d;
using haloflag::halo::Progress;
using haloflag::notify::Backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kIterations = 20;

Precision test_precision() {
  const char* name = std::getenv("HALOFLAG_TEST_PRECISION");
  return name == nullptr ? Precision::float64 : precision_from_name(name);
}

// Why this run cannot use its backend ("" when it can), and the ranks sharing its GPU: the
// binding done once, with the example's kernels loaded (haloflag/examples/test_backend.hpp).
const hx::TestBackendSetup& backend_setup() {
  return hx::test_backend_setup(load_gpu_kernels);
}

const std::string& backend_unavailable() { return backend_setup().unavailable; }

// A global size every rank count of the tests (1, 2, 4, 8) divides evenly, not a cube, so a
// mixed-up axis shows; in the test's precision.
Problem test_problem(StencilKind stencil) {
  return make_problem(stencil, SizeKind::global, {16, 12, 8}, world_size(), test_precision());
}

TEST(Precision, IsTheTestsAndSetsTheElementSize) {
  const Problem problem = test_problem(StencilKind::seven_point);
  EXPECT_EQ(problem.precision, test_precision());
  EXPECT_EQ(problem.geometry.spec().element_bytes,
            test_precision() == Precision::float32 ? 4 : 8);
  if (world_rank() == 0) {
    std::printf("precision: %s\n", std::string(to_string(problem.precision)).c_str());
  }
}

RunSettings test_settings(int host_team_threads) {
  RunSettings settings;
  settings.backend = hx::test_backend();
  settings.timeout = std::chrono::seconds(60);
  settings.host_team_threads = host_team_threads;
  settings.gpu_threads = 128;
  settings.gpu_sharers = backend_setup().gpu_sharers;
  // Run by hand without MPI_THREAD_MULTIPLE, the run's own thread drives the stream's exchange.
  settings.progress = hx::mpi_thread_multiple() ? Progress::thread : Progress::caller;
  // The resident kernel's sends update the boundary, as the rule has it for a small rank on a GPU
  // (on the host team's few threads it would not): ResidentRoutes tests the other order.
  settings.sends_update_cells = true;
  return settings;
}

// Runs `iterations` (after `earlier` iterations from the initial field) and checks; a failure
// inside a run ends the job at once (the other ranks would wait for their deadline).
CheckResult run_and_check(JacobiVariant& variant, const Problem& problem, int earlier,
                          int iterations) {
  hx::run_or_abort(std::string(to_string(variant.kind())), [&] {
    variant.reset();
    if (earlier > 0) variant.run(earlier);
    variant.run(iterations);
  });
  return check_against_reference(MPI_COMM_WORLD, problem, variant.current(), earlier + iterations);
}

using Case = std::tuple<VariantKind, StencilKind>;

class EveryVariant : public testing::TestWithParam<Case> {};

TEST_P(EveryVariant, MatchesSingleRankReferenceBitForBit) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const auto [kind, stencil] = GetParam();
  const Problem problem = test_problem(stencil);
  auto variant = make_variant(kind, problem, MPI_COMM_WORLD, test_settings(2));
  const CheckResult first = run_and_check(*variant, problem, 0, kIterations);
  EXPECT_TRUE(first.identical) << first.message;
  // An odd count continues from the other buffer and from later epochs.
  const CheckResult continued = run_and_check(*variant, problem, 7, 6);
  EXPECT_TRUE(continued.identical) << continued.message;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return std::string(to_string(std::get<0>(info.param))) + "_" +
         std::to_string(stencil_points(std::get<1>(info.param))) + "point";
}

INSTANTIATE_TEST_SUITE_P(
    Jacobi3d, EveryVariant,
    testing::Combine(testing::Values(VariantKind::conventional, VariantKind::conventional_overlap,
                                     VariantKind::resident, VariantKind::stream),
                     testing::Values(StencilKind::seven_point, StencilKind::twenty_seven_point)),
    case_name);

// The program's variants live side by side and go together. On a GPU, freeing one variant's
// device memory while the stream variant's kernels stay resident waits for those kernels' deadline
// (StreamVariantsGoFirst): the tear-down must take a small part of that deadline.
TEST(AllVariants, LiveSideBySideAndGoWithoutWaitingForADeadline) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(StencilKind::seven_point);
  const RunSettings settings = test_settings(2);
  std::vector<std::unique_ptr<JacobiVariant>> variants;
  for (const VariantKind kind : {VariantKind::conventional, VariantKind::conventional_overlap,
                                 VariantKind::resident, VariantKind::stream}) {
    variants.push_back(make_variant(kind, problem, MPI_COMM_WORLD, settings));
  }
  for (const auto& variant : variants) {
    const CheckResult result = run_and_check(*variant, problem, 0, 6);
    EXPECT_TRUE(result.identical) << to_string(variant->kind()) << ": " << result.message;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto begin = std::chrono::steady_clock::now();
  { const hx::StreamVariantsGoFirst release_order(variants); }
  const auto tear_down = std::chrono::steady_clock::now() - begin;
  EXPECT_TRUE(variants.empty());
  EXPECT_LT(tear_down, settings.timeout / 4)
      << "tearing the variants down took "
      << std::chrono::duration<double>(tear_down).count() << " s";
}

// The overlapped loop with the other exchange strategy than its default (comb_graph): the
// boundary-first order must not depend on how the exchange runs its kernels.
TEST(ConventionalOverlap, CombFusedMatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(StencilKind::twenty_seven_point);
  RunSettings settings = test_settings(2);
  settings.conventional_strategy = haloflag::halo::Strategy::comb_fused;
  auto variant = make_variant(VariantKind::conventional_overlap, problem, MPI_COMM_WORLD, settings);
  const CheckResult result = run_and_check(*variant, problem, 0, 9);
  EXPECT_TRUE(result.identical) << result.message;
}

// The update-rate report times each variant's update alone between and after checked runs:
// afterwards a reset variant runs as before (the resident kernel's updates-only form leaves
// the exchange's epochs alone, the stream variant's exchange kernels wait through it).
class UpdatesOnly : public testing::TestWithParam<VariantKind> {};

TEST_P(UpdatesOnly, LeaveTheVariantReadyForACheckedRun) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(StencilKind::seven_point);
  auto variant = make_variant(GetParam(), problem, MPI_COMM_WORLD, test_settings(2));
  const CheckResult before = run_and_check(*variant, problem, 0, 5);
  EXPECT_TRUE(before.identical) << before.message;
  double seconds = 0.0;
  hx::run_or_abort(std::string(to_string(GetParam())) + " updates only",
               [&] { seconds = variant->run_updates_only(7); });
  EXPECT_GT(seconds, 0.0);
  const CheckResult after = run_and_check(*variant, problem, 3, 6);
  EXPECT_TRUE(after.identical) << after.message;
}

std::string kind_name(const testing::TestParamInfo<VariantKind>& info) {
  return std::string(to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(Jacobi3d, UpdatesOnly,
                         testing::Values(VariantKind::conventional,
                                         VariantKind::conventional_overlap, VariantKind::resident,
                                         VariantKind::stream),
                         kind_name);

// The resident kernel's other routes: the build of the whole exchange with the node transport's
// lines (the other cases here take the build without), launched where a node peer takes lines;
// and each exchange announcing its fields at its start, where the other cases' finishes tell the
// node peers where the next exchange goes (NextExchange).
TEST(ResidentRoutes, LinesAndTheAnnounceAtTheStartMatchReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(StencilKind::twenty_seven_point);
  for (const bool lines : {true, false}) {
    RunSettings settings = test_settings(2);
    if (lines) settings.node_lines_up_to_bytes = std::int64_t{1} << 20;
    settings.next_exchange_told = lines;
    auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
    const CheckResult result = run_and_check(*variant, problem, 0, 9);
    EXPECT_TRUE(result.identical)
        << (lines ? "lines: " : "announced at the start: ") << result.message;
  }
}

// The resident variant with `settings` (test_settings(2) changed by the caller) matches the
// reference at 7 and 27 points.
void expect_resident_matches_at_both_stencils(const RunSettings& settings) {
  for (const StencilKind stencil : {StencilKind::seven_point, StencilKind::twenty_seven_point}) {
    const Problem problem = test_problem(stencil);
    auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
    const CheckResult result = run_and_check(*variant, problem, 0, 9);
    EXPECT_TRUE(result.identical) << stencil_points(stencil) << " points: " << result.message;
  }
}

// The resident kernel with its boundary layer updated first, behind a grid barrier, where the
// other cases' sends update the cells they send (VariantSettings::sends_update_cells).
TEST(ResidentRoutes, BoundaryBeforeTheStartMatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  RunSettings settings = test_settings(2);
  settings.sends_update_cells = false;
  expect_resident_matches_at_both_stencils(settings);
}

// The interior dealt out by block index alone, where the other cases' blocks take its last
// rounds from a counter (RunSettings::interior_by_counter).
TEST(ResidentRoutes, InteriorDealtByBlockMatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  RunSettings settings = test_settings(2);
  settings.interior_by_counter = false;
  expect_resident_matches_at_both_stencils(settings);
}

// The interior swept by every block but those that move the exchange's send pieces, where the
// others take it in one round (ResidentLaunch::spared_blocks): 12 blocks (host threads on the
// host backend) and a rank's 6 faces at 7 points, in a piece or a few each. The launch says so
// on every rank, and the field is the reference's.
TEST(ResidentRoutes, InteriorSweptByTheBlocksThatMoveNoPieceMatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const Problem problem = test_problem(StencilKind::seven_point);
  RunSettings settings = test_settings(12);
  settings.resident_blocks = 12;
  auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
  EXPECT_NE(variant->launch_description().find("the interior swept by every block but the "),
            std::string::npos)
      << variant->launch_description();
  const CheckResult result = run_and_check(*variant, problem, 0, 9);
  EXPECT_TRUE(result.identical) << result.message;
}

// Sends that update their cells in pieces far smaller than a message, several to a block and
// cutting rows and variables' runs anywhere: each piece updates exactly its own cells.
TEST(ResidentRoutes, SendsUpdateInSmallPiecesMatchReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  if (hx::test_backend() != Backend::host) {
    GTEST_SKIP() << "a GPU piece holds at least one element per thread of a block";
  }
  const Problem problem = test_problem(StencilKind::twenty_seven_point);
  RunSettings settings = test_settings(3);
  settings.node_piece_bytes = 24;
  auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, settings);
  const CheckResult result = run_and_check(*variant, problem, 0, 9);
  EXPECT_TRUE(result.identical) << result.message;
}

// More "blocks" than the team usually has, and fewer than the 26 messages: round robin over
// blocks with several messages each, on the host team.
TEST(ResidentTeam, ThreeThreadsMatchReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  if (hx::test_backend() != Backend::host) {
    GTEST_SKIP() << "host team size only matters on the host backend";
  }
  const Problem problem = test_problem(StencilKind::twenty_seven_point);
  auto variant = make_variant(VariantKind::resident, problem, MPI_COMM_WORLD, test_settings(3));
  const CheckResult result = run_and_check(*variant, problem, 0, 9);
  EXPECT_TRUE(result.identical) << result.message;
}

// Every peer over MPI: the stream's exchanges complete only while someone runs their CPU side
// (the ranks of one host are otherwise node peers, which need nobody), here the exchange's
// progress thread or the run's own thread.
class StreamOverMpi : public testing::TestWithParam<Progress> {};

TEST_P(StreamOverMpi, MatchesReference) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  if (GetParam() == Progress::thread && !hx::mpi_thread_multiple()) {
    GTEST_SKIP() << hx::kNoThreadMultiple;
  }
  const Problem problem = test_problem(StencilKind::seven_point);
  RunSettings settings = test_settings(2);
  settings.transport = haloflag::halo::Transport::mpi;
  settings.progress = GetParam();
  auto variant = make_variant(VariantKind::stream, problem, MPI_COMM_WORLD, settings);
  const CheckResult result = run_and_check(*variant, problem, 0, 9);
  EXPECT_TRUE(result.identical) << result.message;
}

std::string progress_name(const testing::TestParamInfo<Progress>& info) {
  return std::string(haloflag::halo::to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(Jacobi3d, StreamOverMpi,
                         testing::Values(Progress::caller, Progress::thread), progress_name);

}  // namespace
