#include "size_list_check.hpp"

#include <cstddef>
#include <stdexcept>

namespace haloflag::model::calibration {

void check_size_list(const std::vector<std::int64_t>& sizes, std::int64_t largest,
                     const std::string& largest_name, const std::string& tool) {
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 1 || sizes[i] > largest) {
      throw std::invalid_argument(tool + ": size " + std::to_string(sizes[i]) +
                                  " is outside 1 B .. " + largest_name);
    }
    if (i > 0 && sizes[i] <= sizes[i - 1]) {
      throw std::invalid_argument(tool + ": sizes must be strictly increasing (" +
                                  std::to_string(sizes[i]) + " after " +
                                  std::to_string(sizes[i - 1]) + ")");
    }
  }
}

}  // namespace haloflag::model::calibration
