// Internal: what the node messages of an epoch still wait for, for a deadline error
// (docs/design.md, "The node transport"): per node peer, whether its arrival has come, with the
// receives (tags, bytes) it carries, and whether this rank's sends to it are out (the peer's
// ghosts_free, this rank's count of pieces). Read from the words of this rank's region.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "transports/node/node_device_plan.hpp"
#include "transports/node/node_memory_sharing.hpp"
#include "transports/node/node_routes.hpp"

namespace haloflag::halo::detail {

// `node_peers`: the device half's peers, in order.
std::string node_pending(std::uint64_t epoch, const std::vector<int>& node_peers,
                         const NodeRoutes& routes, const NodeDevicePlan& plan,
                         const NodeMemorySharing& memory);

}  // namespace haloflag::halo::detail
