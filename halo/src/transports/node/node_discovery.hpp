// Internal: who is on this rank's node, as the node transport sees it (docs/design.md, "The node
// transport"): the ranks of its shared-memory node (split further by HALOFLAG_NODE_SIZE), the
// node's own communicator, the PCI bus ids of their GPUs, and how many ranks share this rank's
// GPU. ranks_on_node answers the same questions for choices made before the transport exists.
#pragma once

#include <mpi.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace haloflag::halo::detail {

// The ranks of `comm` on this rank's node, as the node transport sorts them (HALOFLAG_NODE_SIZE
// may split a node), and how many of the node's ranks share this rank's GPU (1 on the host
// backend): for choices made before the transport is set up.
struct NodeRanks {
  std::set<int> ranks;
  int gpu_sharers = 1;
};
// Collective over `comm`; `gpu`: the ranks are bound to GPUs.
NodeRanks ranks_on_node(MPI_Comm comm, bool gpu, std::chrono::nanoseconds timeout);

// The node transport's first set-up step, and what it learnt.
class NodeDiscovery {
 public:
  // Collective over `comm`, then over the node: who is on this rank's node, and who shares its
  // GPU (`gpu`: the ranks are bound to GPUs). The node's communicator is kept until free_comm().
  void join(MPI_Comm comm, bool gpu, std::chrono::nanoseconds timeout);
  // The node's communicator: MPI_COMM_NULL before join() and after free_comm().
  MPI_Comm comm() const { return comm_; }
  void free_comm() { MPI_Comm_free(&comm_); }

  bool gpu() const { return gpu_; }
  int rank() const { return rank_; }  // in the communicator given to join()
  int node_rank() const { return node_rank_; }
  int node_size() const { return node_size_; }
  // The ranks of the node, by node rank, and the node rank of each.
  const std::vector<int>& members() const { return members_; }
  const std::map<int, int>& node_rank_of() const { return node_rank_of_; }
  bool on_node(int peer) const { return node_rank_of_.contains(peer); }
  int node_rank_of(int peer) const { return node_rank_of_.at(peer); }
  // The PCI bus id of node peer `peer`'s GPU (GPU backends).
  const std::string& bus_id_of(int peer) const {
    return bus_ids_[static_cast<std::size_t>(node_rank_of(peer))];
  }
  // Ranks of this rank's shared-memory node bound to its GPU, itself included (GPU backends).
  int gpu_sharers() const { return gpu_sharers_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool gpu_ = false;
  int rank_ = 0;
  int node_rank_ = 0;
  int node_size_ = 0;
  std::vector<int> members_;
  std::map<int, int> node_rank_of_;  // comm rank -> node rank
  std::vector<std::string> bus_ids_;
  int gpu_sharers_ = 1;
};

}  // namespace haloflag::halo::detail
