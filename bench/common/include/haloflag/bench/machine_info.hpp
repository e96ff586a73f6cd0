// What the run ran on: hosts, CPU, MPI library, and each rank's GPU.
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "haloflag/halo/gpu_binding.hpp"
#include "run_info.hpp"

namespace haloflag::bench {

struct RankGpu {
  std::string description;  // GpuBinding::describe()
  std::string name;
  std::string pci_bus_id;
};

struct MachineInfo {
  model::calibration::RunInfo run;  // date, MPI library, ranks, host per rank
  std::string cpu_model;            // of rank 0's node; empty when unknown
  std::vector<RankGpu> gpus;        // on rank 0, index = rank; empty on the host backend
};

// How many GPUs the ranks use (distinct PCI bus ids; 0 on the host backend).
int distinct_gpus(const MachineInfo& machine);

// Collective over `comm`. `binding`: this rank's GPU, null on the host backend (then on every
// rank).
MachineInfo collect_machine_info(MPI_Comm comm, const halo::GpuBinding* binding);

// The stencil examples' report section: date, MPI library, ranks, hosts, CPU model, and each
// rank's GPU (description, name, PCI bus id).
nlohmann::json machine_run_json(const MachineInfo& machine);

}  // namespace haloflag::bench
