#include "haloflag/halo/gpu_binding.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::halo {

std::string GpuBinding::describe() const {
  return "rank " + std::to_string(world_rank) + " (local " + std::to_string(local_rank) + " of " +
         std::to_string(local_ranks) + ") on " + host + " -> GPU " + std::to_string(device.index) +
         " of " + std::to_string(visible_gpus) + ": " + device.name + " [" + device.pci_bus_id + "]";
}

namespace {

// The ranks of `node` whose GPU has this PCI bus id (this rank included); 0 for an empty id, after
// taking part in the collective like every other rank.
int count_same_gpu(MPI_Comm node, const std::string& bus_id) {
  std::array<char, 32> mine{};
  std::snprintf(mine.data(), mine.size(), "%s", bus_id.c_str());
  int ranks = 0;
  MPI_Comm_size(node, &ranks);
  std::vector<std::array<char, 32>> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(),
                static_cast<int>(mine.size()), MPI_CHAR, node);
  if (bus_id.empty()) return 0;
  int same = 0;
  for (const auto& other : all) {
    if (std::strcmp(other.data(), mine.data()) == 0) ++same;
  }
  return same;
}

}  // namespace

GpuBinding bind_gpu(MPI_Comm comm, int requested) {
  GpuBinding binding;
  MPI_Comm_rank(comm, &binding.world_rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, binding.world_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &binding.local_rank);
  MPI_Comm_size(node, &binding.local_ranks);
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);
  binding.host.assign(host, static_cast<std::size_t>(length));

  std::string why;
  binding.visible_gpus = notify::gpu_device_count(&why);
  const std::string who = "rank " + std::to_string(binding.world_rank) + " on " + binding.host;
  std::string error;
  if (binding.visible_gpus == 0) {
    error = who + ": no GPU visible (" + why + ")";
  } else if (requested >= binding.visible_gpus) {
    error = who + ": GPU " + std::to_string(requested) + " asked for, but only " +
            std::to_string(binding.visible_gpus) + " visible";
  } else {
    const int device = requested >= 0 ? requested : binding.local_rank % binding.visible_gpus;
    notify::set_current_gpu(device);
    binding.device = notify::gpu_device_info(device);
  }
  // Every rank of the node takes part before any of them throws.
  binding.sharers = count_same_gpu(node, binding.device.pci_bus_id);
  MPI_Comm_free(&node);
  if (!error.empty()) throw notify::NotifyError(error);
  return binding;
}

}  // namespace haloflag::halo
