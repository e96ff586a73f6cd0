// How much each rank sends per exchange: the numbers a reader needs to judge a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"

namespace haloflag::bench {

struct MessageSizeCount {
  std::int64_t bytes = 0;
  int count = 0;
};

struct MessageSummary {
  int min_sends = 0, max_sends = 0;  // over ranks
  int min_recvs = 0, max_recvs = 0;
  std::int64_t min_send_bytes = 0, max_send_bytes = 0;  // total bytes a rank sends
  int busiest_rank = 0;              // the rank sending the most bytes (lowest on ties)
  std::vector<MessageSizeCount> busiest_rank_sizes;  // its sends by size, largest first

  // "26 sends + 26 receives per rank, 384 192 B sent per rank (6 x 60000 B, 12 x 1200 B, ...)"
  std::string describe() const;
};

MessageSummary summarize_messages(const halo::ExchangeConfig& config);

}  // namespace haloflag::bench
