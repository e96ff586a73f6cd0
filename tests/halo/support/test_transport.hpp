// The transport the halo tests run with: HALOFLAG_TEST_TRANSPORT (auto, mpi or node; auto when
// unset), HALOFLAG_NODE_SIZE (ranks per "node", 0 or unset: the whole shared-memory node; the
// library reads it itself), HALOFLAG_TEST_NODE_MAPPING, HALOFLAG_TEST_PERSISTENT_REQUESTS and
// HALOFLAG_TEST_NODE_LINES (the node transport's lines: their limit in bytes). CTest runs the
// same binaries over each transport, with nodes of 2 ranks at 4 and 8 ranks, where one exchange
// mixes node and mpi peers, and with the node peers in lines.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/transport.hpp"

namespace haloflag::test {

inline halo::Transport test_transport() {
  const char* name = std::getenv("HALOFLAG_TEST_TRANSPORT");
  return name == nullptr ? halo::Transport::automatic : halo::parse_transport(name);
}

inline int test_node_size() {
  const char* size = std::getenv("HALOFLAG_NODE_SIZE");
  return size == nullptr ? 0 : std::atoi(size);
}

// Splits the host into nodes of `ranks` ranks (0: whole) for the Exchanges made while it lives,
// through the library's HALOFLAG_NODE_SIZE; every rank must make the same one.
class NodeSizeForTest {
 public:
  explicit NodeSizeForTest(int ranks) {
    const char* before = std::getenv("HALOFLAG_NODE_SIZE");
    if (before != nullptr) before_ = before;
    had_before_ = before != nullptr;
    setenv("HALOFLAG_NODE_SIZE", std::to_string(ranks).c_str(), 1);
  }
  ~NodeSizeForTest() {
    if (had_before_) {
      setenv("HALOFLAG_NODE_SIZE", before_.c_str(), 1);
    } else {
      unsetenv("HALOFLAG_NODE_SIZE");
    }
  }
  NodeSizeForTest(const NodeSizeForTest&) = delete;
  NodeSizeForTest& operator=(const NodeSizeForTest&) = delete;

 private:
  std::string before_;
  bool had_before_ = false;
};

inline halo::NodeMapping test_node_mapping() {
  const char* name = std::getenv("HALOFLAG_TEST_NODE_MAPPING");
  return name == nullptr ? halo::NodeMapping::automatic : halo::parse_node_mapping(name);
}

// HALOFLAG_TEST_PERSISTENT_REQUESTS=0: MPI_Isend/MPI_Irecv per exchange instead of the
// default persistent requests.
inline bool test_persistent_requests() {
  const char* value = std::getenv("HALOFLAG_TEST_PERSISTENT_REQUESTS");
  return value == nullptr || std::string(value) != "0";
}

// HALOFLAG_TEST_MESSAGE_THREADS: threads of the per-message blocks (unset: the default). Four
// ranks sharing one GPU under MPS share its multiprocessors too, and with smaller blocks all of
// their persistent grids fit at once.
inline int test_message_threads() {
  const char* value = std::getenv("HALOFLAG_TEST_MESSAGE_THREADS");
  return value == nullptr ? 0 : std::atoi(value);
}

// HALOFLAG_TEST_NODE_LINES: AdvancedOptions::node_lines_up_to_bytes (unset: the default).
inline std::int64_t test_node_lines() {
  const char* value = std::getenv("HALOFLAG_TEST_NODE_LINES");
  return value == nullptr ? halo::kDefaultNodeLinesUpToBytes : std::atoll(value);
}

inline void apply_test_transport(halo::ExchangeOptions& options) {
  options.advanced.node_lines_up_to_bytes = test_node_lines();
  options.transport = test_transport();
  options.advanced.node_mapping = test_node_mapping();
  options.advanced.persistent_requests = test_persistent_requests();
  if (test_message_threads() > 0) options.advanced.launch.message_threads = test_message_threads();
}

// "transport auto, nodes of 2 ranks", for test labels and messages.
inline std::string test_transport_label() {
  std::string label = "transport " + std::string(halo::to_string(test_transport()));
  if (test_node_size() > 0) label += ", nodes of " + std::to_string(test_node_size()) + " ranks";
  if (test_node_mapping() == halo::NodeMapping::host) label += ", host mapping";
  if (!test_persistent_requests()) label += ", MPI requests per exchange";
  if (test_node_lines() > 0) label += ", node lines up to " + std::to_string(test_node_lines()) + " bytes";
  if (test_message_threads() > 0) {
    label += ", " + std::to_string(test_message_threads()) + " threads per message block";
  }
  return label;
}

}  // namespace haloflag::test
