#include "haloflag/examples/run_end.hpp"

#include <iostream>

#include "haloflag/bench/mpi_program.hpp"

namespace haloflag::examples {

double slowest(double seconds, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return seconds;
}

int finish_run(const std::string& tool, int rank, const std::function<void()>& print,
               const std::string& json_path, const std::function<nlohmann::json()>& json,
               bool all_identical, const std::string& difference) {
  if (rank == 0) {
    print();
    if (!json_path.empty() && !haloflag::bench::write_json_output(json_path, json(), tool)) {
      return 1;
    }
  }
  if (!all_identical) {
    if (rank == 0) std::cerr << tool << ": " << difference << "\n";
    return 1;
  }
  return 0;
}

}  // namespace haloflag::examples
