/// @file
/// Which path the model times a message on: MPI (the paper's postal and K-models) or the node
/// transport, where the GPUs of one node move halo messages into each other's memory themselves
/// (docs/model.md, "Node transport").
#pragma once

#include <string_view>

namespace haloflag::model {

/// mpi:  every message on the MPI path (the paper's model).
/// node: messages between ranks of one node on the node transport, the others on MPI; needs the
///       parameter file's node_transport.
/// automatic ("auto"): node when the parameter file has node_transport, else mpi (with a note).
enum class TransportChoice { mpi, node, automatic };

/// The path one message was timed on.
enum class MessagePath { mpi, node };

/// The choice's name.
std::string_view to_string(TransportChoice transport) noexcept;
/// The path's name.
std::string_view to_string(MessagePath path) noexcept;

/// Parses "mpi", "node" or "auto"; throws std::invalid_argument naming the valid choices.
TransportChoice parse_transport_choice(std::string_view name);

/// Whether messages within a node take the node transport, given whether the parameter file has
/// its terms. Throws ModelError for node without them.
bool node_transport_applies(TransportChoice transport, bool have_node_terms);

}  // namespace haloflag::model
