// Values as the command lines of bench/ and examples/ write them: a comma-separated list of
// names (--strategy a,b; --variant all), and one number or three (--size N or X,Y,Z).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"

namespace haloflag::bench {

// The items of a comma-separated list, as written: "" is one empty item, and "a,,b" has an
// empty item between a and b (the caller's check names it as an unknown word).
std::vector<std::string> split_list(const std::string& text);

// Throws CLI::ValidationError: `option` took `count` values, not one or three.
[[noreturn]] void refuse_triple(const std::string& option, std::size_t count);

// N means N,N,N; anything but one or three values is refused, naming `option`.
template <class T>
std::array<T, 3> as_triple(const std::vector<T>& values, const std::string& option) {
  if (values.size() == 1) return {values[0], values[0], values[0]};
  if (values.size() == 3) return {values[0], values[1], values[2]};
  refuse_triple(option, values.size());
}

}  // namespace haloflag::bench
