// Values as the command lines of bench/ and examples/ write them: a comma-separated list of
// names (--strategy a,b; --variant all), and one number or three (--size N or X,Y,Z).
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <string>
#include <vector>

namespace haloflag::bench {

// The items of a comma-separated list, as written: "" is one empty item, and "a,,b" has an
// empty item between a and b (the caller's check names it as an unknown word).
std::vector<std::string> split_list(const std::string& text);

// N means N,N,N; anything but one or three values is refused, naming `option`.
template <class T>
std::array<T, 3> as_triple(const std::vector<T>& values, const std::string& option) {
  if (values.size() == 1) return {values[0], values[0], values[0]};
  if (values.size() == 3) return {values[0], values[1], values[2]};
  throw CLI::ValidationError(option, "takes N or X,Y,Z, got " + std::to_string(values.size()) +
                                         " values");
}

}  // namespace haloflag::bench
