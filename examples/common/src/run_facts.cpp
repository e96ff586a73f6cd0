#include "haloflag/examples/run_facts.hpp"

#include <ostream>

namespace haloflag::examples {

RunFacts collect_run_facts(MPI_Comm comm, const std::string& tool, int argc, char** argv,
                           const RunStart& start) {
  RunFacts facts{{argv, argv + argc},
                 start.backend,
                 haloflag::bench::collect_machine_info(
                     comm, start.binding ? &*start.binding : nullptr)};
  facts.machine.run.tool = tool;
  return facts;
}

void print_run_facts(std::ostream& out, const RunFacts& facts) {
  out << "backend: " << facts.backend.describe() << "\n";
  out << "MPI: " << facts.machine.run.mpi_library << "\n";
  if (!facts.machine.cpu_model.empty()) out << "CPU (rank 0): " << facts.machine.cpu_model << "\n";
  for (const auto& gpu : facts.machine.gpus) out << "GPU: " << gpu.description << "\n";
}

}  // namespace haloflag::examples
