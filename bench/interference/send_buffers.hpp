// The pinned host memory of both ranks (the paper's §4.3: every buffer in pinned host memory).
// The sender has one allocation holding the send buffer and the buffers the GPU keeps writing:
//
//   [0, n)                 send buffer (SSB, PSB: the GPU writes here)
//   [n, 2n)                PCB's buffer, consecutive to the send buffer
//   [n + gap, 2n + gap)    P2AB's buffer, `gap` bytes (2 MiB by default) after the send buffer
//
// sized for the largest n of the run. The receiver has one buffer of the largest n.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/mapped_allocation.hpp"
#include "scenario.hpp"

namespace haloflag::bench::interference {

class SenderBuffers {
 public:
  SenderBuffers(notify::Backend backend, std::size_t max_bytes, std::size_t gap_bytes);

  std::uint32_t* send_host() const { return static_cast<std::uint32_t*>(memory_.host()); }
  std::uint32_t* send_device() const { return static_cast<std::uint32_t*>(memory_.device()); }
  // Where the buffer the GPU keeps writing during a send of `bytes` starts, in bytes from the
  // send buffer's start; 0 for PSB (the send buffer itself).
  std::size_t target_offset(Scenario scenario, std::size_t bytes) const;
  // Device address of that buffer; null when the GPU does not write during the send.
  std::uint32_t* target_device(Scenario scenario, std::size_t bytes) const;

 private:
  std::size_t gap_bytes_;
  notify::MappedAllocation memory_;
};

// Fills `words` words with pattern_word(epoch, 0, i), as the GPU's first pass does.
void fill_pattern(std::uint32_t* words, std::size_t count, std::uint64_t epoch);

struct PatternCheck {
  std::uint64_t mismatches = 0;
  std::int64_t first_mismatch = -1;  // word index, -1 when none
};
PatternCheck check_pattern(const std::uint32_t* words, std::size_t count, std::uint64_t epoch);

}  // namespace haloflag::bench::interference
