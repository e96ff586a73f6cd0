// CLI11 validators for integer options, shared by the benchmarks and the Jacobi3D example, with
// messages that say what is wanted: CLI::PositiveNumber's own prints DBL_MAX, and CLI::Range
// calls a word "not in range".
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>

namespace haloflag::bench {

namespace detail {

// The whole of `text` as an integer; empty when it is not one (or is out of long long's range).
inline std::optional<long long> whole_integer(const std::string& text) {
  try {
    std::size_t end = 0;
    const long long value = std::stoll(text, &end);
    if (end == text.size()) return value;
  } catch (const std::exception&) {
    // not an integer: empty, like any other bad value
  }
  return std::nullopt;
}

}  // namespace detail

// "must be an integer >= N, got 'X'"
inline CLI::Validator at_least(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        const std::optional<long long> value = detail::whole_integer(text);
        if (value && *value >= minimum) return {};
        return "must be an integer >= " + std::to_string(minimum) + ", got '" + text + "'";
      },
      ">=" + std::to_string(minimum));
}

// "must be an integer from A to B, got 'X'"
inline CLI::Validator integer_range(long long lowest, long long highest) {
  return CLI::Validator(
      [lowest, highest](std::string& text) -> std::string {
        const std::optional<long long> value = detail::whole_integer(text);
        if (value && *value >= lowest && *value <= highest) return {};
        return "must be an integer from " + std::to_string(lowest) + " to " +
               std::to_string(highest) + ", got '" + text + "'";
      },
      "");
}

}  // namespace haloflag::bench
