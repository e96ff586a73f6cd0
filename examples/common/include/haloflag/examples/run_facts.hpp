// What a stencil example's report says about where it ran: the command line, the backend and the
// machine (hosts, CPU, MPI library, each rank's GPU), printed at the head of its table the same
// way in both examples.
#pragma once

#include <mpi.h>

#include <iosfwd>
#include <string>
#include <vector>

#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "haloflag/examples/run_start.hpp"

namespace haloflag::examples {

struct RunFacts {
  std::vector<std::string> command_line;
  haloflag::bench::BackendChoice backend;
  haloflag::bench::MachineInfo machine;  // machine.run.tool names the example
};

// Collective over `comm` (the machine facts are gathered from every rank).
RunFacts collect_run_facts(MPI_Comm comm, const std::string& tool, int argc, char** argv,
                           const RunStart& start);

// The "backend:", "MPI:", "CPU (rank 0):" and "GPU:" lines of the heading.
void print_run_facts(std::ostream& out, const RunFacts& facts);

}  // namespace haloflag::examples
