/// @file
/// The trivially copyable handle to a flag array that kernels and host-team threads receive.
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::notify {

/// A flag array as seen from one side: its lines, count and id.
struct FlagArrayView {
  FlagLine* lines = nullptr;  ///< valid on the side the view was made for (device or host)
  std::uint32_t count = 0;  ///< number of flags
  std::uint32_t array_id = 0;  ///< names the array in failure reports (ControlBlock::array_name)

  /// The epoch word of flag `index`.
  HF_HD std::uint64_t* word(std::uint32_t index) const { return &lines[index].epoch; }
};

}  // namespace haloflag::notify
