#include "transports/node/node_transport.hpp"

#include <cstdio>

#include "deadline_collectives.hpp"
#include "haloflag/halo/errors.hpp"
#include "transports/node/node_peer_paths.hpp"
#include "transports/node/node_pending.hpp"
#include "transports/node/node_piece_table.hpp"

namespace haloflag::halo::detail {

NodeTransport::NodeTransport(MPI_Comm comm, const RankMessages& messages,
                             const MessageLayouts& layouts, const kernels::FieldSet& fields,
                             const ExchangeOptions& options, notify::ControlBlock& control,
                             const MessageNames& names)
    : timeout_(options.timeout),
      memory_(node_, timeout_),
      fields_(node_, layout_, memory_, timeout_),
      signals_(messages.sends.size(), messages.recvs.size()),
      routes_(messages.sends.size(), messages.recvs.size(), node_, layout_, memory_, fields_,
              timeout_),
      plan_(control) {
  try {
    set_up(comm, NodeSetUpInputs{messages, layouts, fields, options, names});
  } catch (...) {
    // The node's other ranks may be anywhere in the set-up: free nothing they might map.
    memory_.keep_region();
    throw;
  }
}

void NodeTransport::throw_if_unusable() const {
  if (!problems_.empty()) throw ConfigError(problems_);
}

// The steps run in the same order on every rank: their collective calls over `comm` and the node
// must match. What cannot be kept goes to problems_ (see the constructor's comment); set_up stops
// after the last collective step where the GPU refuses the shared memory, and before cutting the
// pieces where any problem was found. Each step reads what the steps before it learnt.
void NodeTransport::set_up(MPI_Comm comm, const NodeSetUpInputs& in) {
  node_.join(comm, in.options.backend != notify::Backend::host, timeout_);
  layout_.choose_peers(in, node_, problems_);
  layout_.lay_out_region(in);
  // GPU: the device region, its IPC handle, and the handles of this rank's node peers; then the
  // lines that the region's memory allows.
  memory_.place_region(layout_.node_peers(), in.options, layout_.region_bytes());
  layout_.settle_lines(in, node_.gpu() && !memory_.in_device());
  // Direct placement: the fields of the peers this rank sends to, mapped here.
  fields_.map_first(in.fields);
  memory_.create_segments(NodeSignals::mailbox_bytes(in.messages.recvs.size()),
                          layout_.region_bytes());
  routes_.exchange(in);
  const bool host_regions =
      node_.gpu() && (memory_.host_region_needed() || routes_.peer_region_in_host());
  if (!memory_.register_segments(host_regions, problems_)) return;
  routes_.route(in, signals_, problems_);
  if (!problems_.empty()) return;
  fields_.lay_out_targets();
  const NodePieceTable table = routes_.cut_pieces(in);
  if (any()) {
    plan_.upload(in.options.backend, routes_.peer_routes(), routes_.sends(), routes_.recvs(),
                 table, fields_.targets(), node_.gpu() && !memory_.in_device());
  }
  peers_ = describe_node_peers(in, node_, layout_, memory_, fields_, routes_);
}

void NodeTransport::map_fields(std::uint32_t slot, const kernels::FieldSet& fields) {
  fields_.map_fields(slot, fields, any() ? &plan_ : nullptr);
}

std::string NodeTransport::pending(std::uint64_t epoch) const {
  return node_pending(epoch, layout_.node_peers(), routes_, plan_, memory_);
}

NodeTransport::~NodeTransport() {
  memory_.close_mappings();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || node_.comm() == MPI_COMM_NULL) {
    memory_.keep_region();  // nobody can be asked: never free what a peer may map
    return;
  }
  try {
    barrier_with_deadline(node_.comm(), timeout_, "the barrier before freeing node memory");
  } catch (const std::exception& error) {
    // A peer that does not answer may still map this rank's device memory: keep it.
    std::fprintf(stderr, "%s; this rank's node memory is left allocated\n", error.what());
    memory_.keep_region();
    return;
  }
  memory_.free_region();
  node_.free_comm();
}

}  // namespace haloflag::halo::detail
