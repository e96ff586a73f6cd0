#include "haloflag/bench/machine_info.hpp"

#include <set>
#include <string>

#include "haloflag/bench/gather_strings.hpp"
#include "haloflag/bench/machine_facts.hpp"

namespace haloflag::bench {

namespace {

// One clean line: Open MPI counts the terminating NUL in MPI_Get_library_version's length (and
// its one-line text has no newline to cut at), MPICH puts a tab after "MPICH Version:".
std::string tidy_library_line(std::string text) {
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ' || text.back() == '\t')) {
    text.pop_back();
  }
  for (char& c : text) {
    if (c == '\t') c = ' ';
  }
  return text;
}

}  // namespace

MachineInfo collect_machine_info(MPI_Comm comm, const halo::GpuBinding* binding) {
  MachineInfo info;
  info.run = model::calibration::collect_run_info(comm, "halo_bench");
  info.run.mpi_library = tidy_library_line(info.run.mpi_library);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) info.cpu_model = cpu_model_name();
  if (binding == nullptr) return info;

  const std::vector<std::string> descriptions = gather_strings(comm, binding->describe());
  const std::vector<std::string> names = gather_strings(comm, binding->device.name);
  const std::vector<std::string> bus_ids = gather_strings(comm, binding->device.pci_bus_id);
  for (std::size_t r = 0; r < descriptions.size(); ++r) {
    info.gpus.push_back({descriptions[r], names[r], bus_ids[r]});
  }
  return info;
}

int distinct_gpus(const MachineInfo& machine) {
  std::set<std::string> bus_ids;
  for (const RankGpu& gpu : machine.gpus) bus_ids.insert(gpu.pci_bus_id);
  return static_cast<int>(bus_ids.size());
}

nlohmann::json machine_run_json(const MachineInfo& machine) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& gpu : machine.gpus) {
    gpus.push_back({{"description", gpu.description}, {"name", gpu.name},
                    {"pci_bus_id", gpu.pci_bus_id}});
  }
  return {{"date", machine.run.date},       {"mpi_library", machine.run.mpi_library},
          {"ranks", machine.run.ranks},     {"hosts", machine.run.hosts},
          {"cpu_model", machine.cpu_model}, {"gpus", gpus}};
}

}  // namespace haloflag::bench
