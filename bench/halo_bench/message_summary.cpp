#include "message_summary.hpp"

#include <algorithm>
#include <map>

namespace haloflag::bench {

namespace {

std::string range_text(std::int64_t low, std::int64_t high) {
  return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
}

}  // namespace

MessageSummary summarize_messages(const halo::ExchangeConfig& config) {
  MessageSummary summary;
  bool first = true;
  for (std::size_t rank = 0; rank < config.rank_messages.size(); ++rank) {
    const halo::RankMessages& messages = config.rank_messages[rank];
    const int sends = static_cast<int>(messages.sends.size());
    const int recvs = static_cast<int>(messages.recvs.size());
    std::int64_t bytes = 0;
    for (const halo::Message& send : messages.sends) bytes += send.bytes;
    if (first || bytes > summary.max_send_bytes) summary.busiest_rank = static_cast<int>(rank);
    summary.min_sends = first ? sends : std::min(summary.min_sends, sends);
    summary.max_sends = first ? sends : std::max(summary.max_sends, sends);
    summary.min_recvs = first ? recvs : std::min(summary.min_recvs, recvs);
    summary.max_recvs = first ? recvs : std::max(summary.max_recvs, recvs);
    summary.min_send_bytes = first ? bytes : std::min(summary.min_send_bytes, bytes);
    summary.max_send_bytes = first ? bytes : std::max(summary.max_send_bytes, bytes);
    first = false;
  }
  if (config.rank_messages.empty()) return summary;

  std::map<std::int64_t, int, std::greater<>> counts;
  for (const halo::Message& send :
       config.rank_messages[static_cast<std::size_t>(summary.busiest_rank)].sends) {
    ++counts[send.bytes];
  }
  for (const auto& [bytes, count] : counts) summary.busiest_rank_sizes.push_back({bytes, count});
  return summary;
}

std::string MessageSummary::describe() const {
  std::string text = range_text(min_sends, max_sends) + " sends + " +
                     range_text(min_recvs, max_recvs) + " receives per rank, " +
                     range_text(min_send_bytes, max_send_bytes) + " B sent per rank";
  if (!busiest_rank_sizes.empty()) {
    text += min_send_bytes == max_send_bytes ? " (" : " (rank " + std::to_string(busiest_rank) + ": ";
    for (std::size_t i = 0; i < busiest_rank_sizes.size(); ++i) {
      if (i > 0) text += ", ";
      text += std::to_string(busiest_rank_sizes[i].count) + " x " +
              std::to_string(busiest_rank_sizes[i].bytes) + " B";
    }
    text += ")";
  }
  return text;
}

}  // namespace haloflag::bench
