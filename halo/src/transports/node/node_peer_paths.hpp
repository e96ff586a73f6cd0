// Internal: NodeTransport::peers() (docs/design.md, "The node transport"): each peer's transport
// and, for the node ones, the path its messages take and why (device memory through IPC or
// pinned host memory, lines, pieces into the ghost cells or the buffer), as the set-up found it.
#pragma once

#include <vector>

#include "haloflag/halo/transport.hpp"
#include "transports/node/node_discovery.hpp"
#include "transports/node/node_field_mapping.hpp"
#include "transports/node/node_memory_sharing.hpp"
#include "transports/node/node_region_layout.hpp"
#include "transports/node/node_routes.hpp"
#include "transports/node/node_set_up_inputs.hpp"

namespace haloflag::halo::detail {

// Once the routes are set up.
std::vector<PeerTransport> describe_node_peers(const NodeSetUpInputs& in,
                                               const NodeDiscovery& node,
                                               const NodeRegionLayout& layout,
                                               const NodeMemorySharing& memory,
                                               const NodeFieldMapping& fields,
                                               const NodeRoutes& routes);

}  // namespace haloflag::halo::detail
