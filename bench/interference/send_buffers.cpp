#include "send_buffers.hpp"

#include "access_program.hpp"

namespace haloflag::bench::interference {

SenderBuffers::SenderBuffers(notify::Backend backend, std::size_t max_bytes, std::size_t gap_bytes)
    : gap_bytes_(gap_bytes), memory_(backend, 2 * max_bytes + gap_bytes) {}

std::size_t SenderBuffers::target_offset(Scenario scenario, std::size_t bytes) const {
  switch (scenario) {
    case Scenario::pcb: return bytes;
    case Scenario::p2ab: return bytes + gap_bytes_;
    default: return 0;
  }
}

std::uint32_t* SenderBuffers::target_device(Scenario scenario, std::size_t bytes) const {
  if (!writes_during_send(scenario)) return nullptr;
  return send_device() + target_offset(scenario, bytes) / sizeof(std::uint32_t);
}

void fill_pattern(std::uint32_t* words, std::size_t count, std::uint64_t epoch) {
  for (std::size_t i = 0; i < count; ++i) words[i] = pattern_word(epoch, 0, i);
}

PatternCheck check_pattern(const std::uint32_t* words, std::size_t count, std::uint64_t epoch) {
  PatternCheck check;
  for (std::size_t i = 0; i < count; ++i) {
    if (words[i] == pattern_word(epoch, 0, i)) continue;
    if (check.first_mismatch < 0) check.first_mismatch = static_cast<std::int64_t>(i);
    ++check.mismatches;
  }
  return check;
}

}  // namespace haloflag::bench::interference
