#include "haloflag/bench/mpi_program.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>

#include "haloflag/bench/usage_error.hpp"

namespace haloflag::bench {

std::optional<int> parse_on_every_rank(CLI::App& app, const std::string& program, int rank,
                                       const std::function<void()>& parse) {
  try {
    parse();
    return std::nullopt;
  } catch (const CLI::CallForHelp& help) {
    if (rank == 0) app.exit(help);
    return 0;
  } catch (const CLI::ParseError& error) {
    if (rank == 0) {
      std::cerr << program << ": " << error.what() << "\nRun with --help for more information.\n";
    }
    return kUsageExitCode;
  }
}

void abort_run(const std::string& program, int rank, const std::string& what) {
  std::fprintf(stderr, "[rank %d] %s: %s\n", rank, program.c_str(), what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

int run_mpi_program(int argc, char** argv, const std::string& program,
                    const std::function<int(int, char**)>& run,
                    const std::function<void()>& before_abort, int thread_level) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, thread_level, &provided);
  int exit_code = 1;
  try {
    exit_code = run(argc, argv);
  } catch (const std::exception& error) {
    if (before_abort) before_abort();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    abort_run(program, rank, error.what());
  }
  MPI_Finalize();
  return exit_code;
}

bool write_json_output(const std::string& path, const nlohmann::json& json,
                       const std::string& program, const std::string& note) {
  std::ofstream out(path, std::ios::trunc);
  if (out) out << json.dump(1) << '\n';
  out.close();
  if (!out) {
    std::fprintf(stderr, "[rank 0] %s: %s: cannot write the JSON file\n", program.c_str(),
                 path.c_str());
    return false;
  }
  std::cout << "wrote " << path << (note.empty() ? "" : " ") << note << '\n';
  return true;
}

}  // namespace haloflag::bench
