// What haloflag_calibrate_node --peer-gpu writes: the peer copies of peer_copy_timing summarised
// per size, the rate per direction fitted over the sizes (time = fixed + bytes / rate), the table
// it prints and the JSON file (format "haloflag-peer-copy") that scripts/tables/headline_table.py reads.
#pragma once

#include <string>
#include <vector>

#include "peer_copy_timing.hpp"

namespace haloflag::bench {

struct PeerCopyRun {
  std::string date;  // UTC, ISO 8601
  std::string host;
  std::string command_line;
  std::string gpu_a;  // "GPU 0: <name> [<PCI bus id>]"
  std::string gpu_b;
  PeerCopyPlan plan;
  std::vector<PeerCopySamples> samples;
};

// The JSON text; throws std::invalid_argument when the rate cannot be fitted (fewer than two
// distinct sizes).
std::string peer_copy_json(const PeerCopyRun& run);

// Per size: bytes, wall and device medians, and bytes / wall median; then the fit.
void print_peer_copies(const PeerCopyRun& run);

}  // namespace haloflag::bench
