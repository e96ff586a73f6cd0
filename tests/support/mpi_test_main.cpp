// GoogleTest main for tests that run under mpiexec.
//
// Every rank runs every test. Only rank 0 prints GoogleTest's report; the other ranks print
// their failures prefixed with their rank. The process exit code is the same on all ranks:
// 1 when any rank failed a test, so mpiexec and CTest see a failure wherever it happened;
// the "skipped" code of test_exit_code.hpp only when every rank skipped everything.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_exit_code.hpp"

namespace {

// Prints only failed assertions, each prefixed by the rank that saw it.
class RankFailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (result.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                   result.file_name() ? result.file_name() : "?", result.line_number(),
                   result.summary());
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  // HALOFLAG_TEST_MPI_THREAD=multiple: for tests of the progress thread, which calls MPI beside
  // the test's own thread. Otherwise the default level, which tests of the level check need.
  const char* level = std::getenv("HALOFLAG_TEST_MPI_THREAD");
  if (level != nullptr && std::string(level) == "multiple") {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  // Errors must come back as return codes so tests can check them and report the peer/tag.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  testing::InitGoogleTest(&argc, argv);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }

  using haloflag::test::RunVerdict;
  const bool run_failed = RUN_ALL_TESTS() != 0;
  const RunVerdict local = run_failed ? RunVerdict::failed
                                      : haloflag::test::verdict_of(*testing::UnitTest::GetInstance());
  const int local_failed = local == RunVerdict::failed ? 1 : 0;
  const int local_all_skipped = local == RunVerdict::all_skipped ? 1 : 0;
  int ranks_failed = 0;
  int ranks_all_skipped = 0;
  MPI_Allreduce(&local_failed, &ranks_failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&local_all_skipped, &ranks_all_skipped, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && ranks_failed > 0) {
    std::fprintf(stderr, "%d rank(s) failed at least one test\n", ranks_failed);
  }
  MPI_Finalize();
  if (ranks_failed > 0) return 1;
  return haloflag::test::exit_code_of(ranks_all_skipped == size ? RunVerdict::all_skipped
                                                                : RunVerdict::passed);
}
