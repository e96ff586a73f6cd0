#include "haloflag/examples/run_start.hpp"

#include <CLI/CLI.hpp>

#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/examples/problem_error.hpp"

namespace haloflag::examples::detail {

namespace hb = haloflag::bench;

std::optional<int> parse_command_line(CLI::App& app, MPI_Comm comm, const std::string& tool,
                                      const std::function<void()>& parse,
                                      const std::string& json_path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (const auto exit_code = hb::parse_on_every_rank(app, tool, rank, parse)) return exit_code;
  return hb::agree_on_output_paths(comm, tool, 0, {{"--json", json_path}});
}

std::optional<int> set_up_backend(MPI_Comm comm, const std::string& tool,
                                  const std::string& backend_name, int gpu,
                                  const std::function<void()>& make_problem,
                                  void (*load_kernels)(), RunStart& start) {
  if (const auto exit_code = hb::run_agreed_setup(comm, tool, [&] {
        start.backend = hb::choose_backend(backend_name);
        try {
          make_problem();
        } catch (const ProblemError& error) {
          throw hb::UsageError(error.what());
        }
      })) {
    return exit_code;
  }
  return hb::run_agreed_setup(comm, tool, [&] {
    if (!start.backend.emulated()) {
      start.binding = haloflag::halo::bind_gpu(comm, gpu);
      load_kernels();
    }
  });
}

}  // namespace haloflag::examples::detail
