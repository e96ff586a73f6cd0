/// @file
/// What kind of link a message crosses, and which MPI protocol carries it. The two decide which
/// parameter set of the K-model applies (paper §6.4).
#pragma once

#include <string_view>

namespace haloflag::model {

/// intra_socket: both ranks on one socket (postal model, Eq. 2).
/// inter_socket: one node, different sockets (Eq. 3-4 with the inter-socket set).
/// inter_node:   different nodes (Eq. 3-4 with the inter-node set).
enum class MessageClass { intra_socket, inter_socket, inter_node };

/// Eager for n <= the threshold, rendezvous above it.
enum class Protocol { eager, rendezvous };

/// The class's name.
std::string_view to_string(MessageClass message_class) noexcept;
/// The protocol's name.
std::string_view to_string(Protocol protocol) noexcept;

}  // namespace haloflag::model
