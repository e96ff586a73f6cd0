#include "haloflag/bench/option_values.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace haloflag::bench {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    items.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

void refuse_triple(const std::string& option, std::size_t count) {
  throw CLI::ValidationError(option, "takes N or X,Y,Z, got " + std::to_string(count) + " values");
}

}  // namespace haloflag::bench
