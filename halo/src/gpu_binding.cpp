#include "haloflag/halo/gpu_binding.hpp"

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::halo {

std::string GpuBinding::describe() const {
  return "rank " + std::to_string(world_rank) + " (local " + std::to_string(local_rank) + " of " +
         std::to_string(local_ranks) + ") on " + host + " -> GPU " + std::to_string(device.index) +
         " of " + std::to_string(visible_gpus) + ": " + device.name + " [" + device.pci_bus_id + "]";
}

GpuBinding bind_gpu(MPI_Comm comm, int requested) {
  GpuBinding binding;
  MPI_Comm_rank(comm, &binding.world_rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, binding.world_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &binding.local_rank);
  MPI_Comm_size(node, &binding.local_ranks);
  MPI_Comm_free(&node);
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);
  binding.host.assign(host, static_cast<std::size_t>(length));

  std::string why;
  binding.visible_gpus = notify::gpu_device_count(&why);
  const std::string who = "rank " + std::to_string(binding.world_rank) + " on " + binding.host;
  if (binding.visible_gpus == 0) throw notify::NotifyError(who + ": no GPU visible (" + why + ")");
  if (requested >= binding.visible_gpus) {
    throw notify::NotifyError(who + ": GPU " + std::to_string(requested) + " asked for, but only " +
                              std::to_string(binding.visible_gpus) + " visible");
  }
  const int device = requested >= 0 ? requested : binding.local_rank % binding.visible_gpus;
  notify::set_current_gpu(device);
  binding.device = notify::gpu_device_info(device);
  return binding;
}

}  // namespace haloflag::halo
