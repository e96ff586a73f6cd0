#include "transports/node/node_discovery.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "deadline_collectives.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/notify/gpu_device.hpp"

namespace haloflag::halo::detail {
namespace {

// The PCI bus id of each rank of `comm`'s GPU.
std::vector<std::string> gather_bus_ids(MPI_Comm comm, std::chrono::nanoseconds timeout) {
  struct BusId {
    std::array<char, 32> text{};
  };
  BusId mine;
  const std::string id = notify::gpu_device_info(notify::current_gpu()).pci_bus_id;
  std::snprintf(mine.text.data(), mine.text.size(), "%s", id.c_str());
  std::vector<std::string> ids;
  for (const BusId& other : all_gather(mine, comm, timeout, "gathering the ranks' GPUs")) {
    ids.emplace_back(other.text.data());
  }
  return ids;
}

// HALOFLAG_NODE_SIZE=N splits each shared-memory node further into groups of N consecutive
// ranks, so that one host stands for several nodes: the tests' and experiments' mixed node
// and MPI peers on one machine. Unset or 0: each node whole.
int node_size_from_environment() {
  const char* text = std::getenv("HALOFLAG_NODE_SIZE");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const long size = std::strtol(text, &end, 10);
  if (*end != '\0' || size < 0 || size > 1 << 20) {
    throw ConfigError(std::string("HALOFLAG_NODE_SIZE='") + text +
                      "': expected the ranks per node, a whole number >= 0");
  }
  return static_cast<int>(size);
}

MPI_Comm split_node(MPI_Comm shared, int rank) {
  const int node_size = node_size_from_environment();
  if (node_size <= 0) return shared;
  MPI_Comm part = MPI_COMM_NULL;
  const int status = MPI_Comm_split(shared, rank / node_size, rank, &part);
  MPI_Comm_free(&shared);
  check_node_step(status, "MPI_Comm_split by node size");
  return part;
}

// The node communicator of `comm`'s rank `rank`, and in `gpu_sharers` (with `gpu`) how many
// ranks of its whole shared-memory node are bound to its GPU: the steps that ranks_on_node and
// NodeDiscovery::join share, so that both sort the ranks alike.
MPI_Comm split_into_node(MPI_Comm comm, int rank, bool gpu, std::chrono::nanoseconds timeout,
                         int& gpu_sharers) {
  MPI_Comm shared = MPI_COMM_NULL;
  check_node_step(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared),
                  "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  if (gpu) {
    const std::vector<std::string> ids = gather_bus_ids(shared, timeout);
    const std::string mine = notify::gpu_device_info(notify::current_gpu()).pci_bus_id;
    gpu_sharers = static_cast<int>(std::count(ids.begin(), ids.end(), mine));
  }
  return split_node(shared, rank);
}

}  // namespace

void NodeDiscovery::join(MPI_Comm comm, bool gpu, std::chrono::nanoseconds timeout) {
  gpu_ = gpu;
  MPI_Comm_rank(comm, &rank_);
  comm_ = split_into_node(comm, rank_, gpu_, timeout, gpu_sharers_);
  MPI_Comm_rank(comm_, &node_rank_);
  MPI_Comm_size(comm_, &node_size_);
  members_ = all_gather(rank_, comm_, timeout, "gathering the node's ranks");
  for (int q = 0; q < node_size_; ++q) node_rank_of_[members_[static_cast<std::size_t>(q)]] = q;
  bus_ids_ = gpu_ ? gather_bus_ids(comm_, timeout) : std::vector<std::string>{};
}

NodeRanks ranks_on_node(MPI_Comm comm, bool gpu, std::chrono::nanoseconds timeout) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  NodeRanks found;
  MPI_Comm node = split_into_node(comm, rank, gpu, timeout, found.gpu_sharers);
  const std::vector<int> members = all_gather(rank, node, timeout, "gathering the node's ranks");
  MPI_Comm_free(&node);
  found.ranks = {members.begin(), members.end()};
  return found;
}

}  // namespace haloflag::halo::detail
