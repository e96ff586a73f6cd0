#include "haloflag/bench/setup_agreement.hpp"

#include <cstdio>
#include <exception>
#include <string>

#include "haloflag/bench/output_path.hpp"
#include "haloflag/bench/usage_error.hpp"

namespace haloflag::bench {

std::optional<int> run_agreed_setup(MPI_Comm comm, std::string_view tool,
                                    const std::function<void()>& step) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  int exit_code = 0;
  std::string message;
  try {
    step();
  } catch (const UsageError& error) {
    exit_code = kUsageExitCode;
    message = error.what();
  } catch (const std::exception& error) {
    exit_code = 1;
    message = error.what();
  }

  int first_failing = exit_code != 0 ? rank : ranks;
  MPI_Allreduce(MPI_IN_PLACE, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  if (first_failing == ranks) return std::nullopt;
  // The reporting rank's exit code is the verdict everywhere.
  MPI_Bcast(&exit_code, 1, MPI_INT, first_failing, comm);
  if (rank == first_failing) {
    std::fprintf(stderr, "[rank %d] %.*s: %s\n", rank, static_cast<int>(tool.size()), tool.data(),
                 message.c_str());
  }
  return exit_code;
}

std::optional<int> agree_on_output_paths(MPI_Comm comm, std::string_view tool, int writer,
                                         const std::vector<OutputPath>& paths) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return run_agreed_setup(comm, tool, [&] {
    if (rank != writer) return;
    for (const OutputPath& output : paths) {
      const std::string problem = output_path_problem(output.option, output.path);
      if (!problem.empty()) throw UsageError(problem + " (checked before anything is measured)");
    }
  });
}

}  // namespace haloflag::bench
