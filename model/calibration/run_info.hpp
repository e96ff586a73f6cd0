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
  // The MPI library's transport settings from the environment of rank 0 (NAME=value, sorted):
  // Open MPI's OMPI_MCA_ entries of the btl, pml, mtl, osc, coll, smsc frameworks, opal_cuda_*
  // and mpi_leave_pinned (mpiexec --mca reaches the ranks as these too), MPICH's MPIR_CVAR_* and
  // MPICH_*, UCX_*. They can change the times a lot: with btl_vader_single_copy_mechanism=none
  // Open MPI's shared-memory transport copies every message twice on the CPU, with cma once
  // (docs/results/h200x2/2026-11-22_cma).
  std::vector<std::string> mpi_settings;
};

// Collective over `comm`: every rank gets the same record.
RunInfo collect_run_info(MPI_Comm comm, const std::string& tool);

std::string utc_now_iso8601();

// The NAME=value entries of `environment` (a null-terminated array, as environ) that set the
// MPI library (see RunInfo::mpi_settings), sorted.
std::vector<std::string> mpi_settings_of(const char* const* environment);

// The settings on one line, for report headers ("none set in the environment" when empty).
std::string describe_mpi_settings(const std::vector<std::string>& settings);

}  // namespace haloflag::model::calibration
