#include "haloflag/halo/message_layouts.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo {

namespace {

std::string describe(int rank, const char* kind, const Message& m) {
  return "rank " + std::to_string(rank) + " " + kind + " peer=" + std::to_string(m.peer) +
         " tag=" + std::to_string(m.tag);
}

// Appends the layouts of `messages` back to back; returns the buffer size they need.
std::int64_t append_layouts(int rank, const char* kind, const std::vector<Message>& messages,
                            const MessageData& data,
                            std::vector<kernels::MessageLayout>& layouts) {
  std::int64_t offset = 0;
  for (const Message& m : messages) {
    if (m.boxes.empty()) {
      throw ConfigError(describe(rank, kind, m) + ": the message has no boxes to pack");
    }
    if (m.boxes.size() > static_cast<std::size_t>(kernels::kMaxBoxesPerMessage)) {
      throw ConfigError(describe(rank, kind, m) + ": " + std::to_string(m.boxes.size()) +
                        " boxes exceed the layout capacity of " +
                        std::to_string(kernels::kMaxBoxesPerMessage));
    }
    kernels::MessageLayout layout{};
    layout.box_count = static_cast<int>(m.boxes.size());
    for (std::size_t b = 0; b < m.boxes.size(); ++b) layout.boxes[b] = m.boxes[b];
    layout.buffer_offset = offset;
    int sizes[kernels::kMaxVariables] = {};
    for (int v = 0; v < data.vars; ++v) sizes[v] = data.bytes_of(v);
    layout.set_variables(data.vars, sizes);
    if (layout.bytes() != m.bytes) {
      throw ConfigError(describe(rank, kind, m) + ": boxes hold " +
                        std::to_string(layout.bytes()) + " bytes but the message declares " +
                        std::to_string(m.bytes));
    }
    offset += m.bytes;
    layouts.push_back(layout);
  }
  return offset;
}

}  // namespace

MessageLayouts make_message_layouts(const ExchangeConfig& config, int rank) {
  if (rank < 0 || rank >= config.ranks ||
      static_cast<std::size_t>(rank) >= config.rank_messages.size()) {
    throw ConfigError("rank " + std::to_string(rank) + " is out of range [0, " +
                      std::to_string(config.ranks) + ") of the config");
  }
  if (!config.data) {
    throw ConfigError("rank " + std::to_string(rank) +
                      ": the config has no data record (vars, element_bytes) to build layouts");
  }
  if (config.data->vars > kernels::kMaxVariables) {
    throw ConfigError("rank " + std::to_string(rank) + ": " + std::to_string(config.data->vars) +
                      " variables exceed the field capacity of " +
                      std::to_string(kernels::kMaxVariables));
  }
  for (int v = 0; v < config.data->vars; ++v) {
    const int bytes = config.data->bytes_of(v);
    if (bytes < 1 || bytes > kernels::kMaxElementBytes) {
      throw ConfigError("rank " + std::to_string(rank) + ": variable " + std::to_string(v) +
                        " has " + std::to_string(bytes) + "-byte elements; an element holds 1 to " +
                        std::to_string(kernels::kMaxElementBytes) + " bytes");
    }
  }
  const RankMessages& messages = config.rank_messages[static_cast<std::size_t>(rank)];
  if (!messages.field_extent) {
    throw ConfigError("rank " + std::to_string(rank) +
                      ": the config gives no field extent, so boxes cannot be addressed");
  }
  MessageLayouts layouts;
  layouts.send_buffer_bytes =
      append_layouts(rank, "send", messages.sends, *config.data,
                     layouts.sends);
  layouts.recv_buffer_bytes =
      append_layouts(rank, "recv", messages.recvs, *config.data,
                     layouts.recvs);
  return layouts;
}

MessageLayouts make_message_layouts(const Geometry& geometry, int rank) {
  RankMessages messages = rank_messages(geometry, rank);  // checks the rank first
  ExchangeConfig config;
  config.ranks = geometry.ranks();
  config.data = MessageData{geometry.spec().vars, geometry.spec().element_bytes,
                           geometry.spec().variable_bytes};
  config.rank_messages.resize(static_cast<std::size_t>(geometry.ranks()));
  config.rank_messages[static_cast<std::size_t>(rank)] = std::move(messages);
  return make_message_layouts(config, rank);
}

int largest_element_bytes(const MessageLayouts& layouts) {
  int largest = 0;
  for (const auto* direction : {&layouts.sends, &layouts.recvs}) {
    for (const kernels::MessageLayout& layout : *direction) {
      largest = std::max(largest, layout.largest_element_bytes());
    }
  }
  return largest;
}

}  // namespace haloflag::halo
