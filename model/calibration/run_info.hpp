// What a calibration ran on: recorded beside every measurement.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace haloflag::model::calibration {

struct RunInfo {
  std::string tool;
  std::string date;         // UTC, ISO 8601
  std::string mpi_library;  // first line of MPI_Get_library_version
  int ranks = 0;
  std::vector<std::string> hosts;  // processor name per rank
};

// Collective over `comm`: every rank gets the same record.
RunInfo collect_run_info(MPI_Comm comm, const std::string& tool);

std::string utc_now_iso8601();

}  // namespace haloflag::model::calibration
