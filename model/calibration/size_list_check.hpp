// The check every MPI calibration makes of its message sizes before measuring.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace haloflag::model::calibration {

// Throws std::invalid_argument "<tool>: size <n> is outside 1 B .. <largest_name>" for a size
// outside 1 .. `largest` bytes, or "<tool>: sizes must be strictly increasing (<b> after <a>)".
void check_size_list(const std::vector<std::int64_t>& sizes, std::int64_t largest,
                     const std::string& largest_name, const std::string& tool);

}  // namespace haloflag::model::calibration
