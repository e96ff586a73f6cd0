// The last steps of a stencil example's run: the slowest rank's time of each timed run, and the
// report and exit status once every run is done.
#pragma once

#include <mpi.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace haloflag::examples {

// Collective over `comm`: the largest of the ranks' `seconds`.
double slowest(double seconds, MPI_Comm comm = MPI_COMM_WORLD);

// On rank 0: `print` (the table) and, when `json_path` is not empty, the JSON report `json()`
// written there. The exit status: 1 when the report could not be written, or when not
// `all_identical` (rank 0 then says "<tool>: <difference>" on stderr); else 0.
int finish_run(const std::string& tool, int rank, const std::function<void()>& print,
               const std::string& json_path, const std::function<nlohmann::json()>& json,
               bool all_identical, const std::string& difference);

}  // namespace haloflag::examples
