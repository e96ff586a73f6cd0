// A CLI11 validator "must be an integer >= N, got 'X'", shared by the benchmarks and the
// Jacobi3D example: CLI::PositiveNumber's own message prints DBL_MAX.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <exception>
#include <string>

namespace haloflag::bench {

inline CLI::Validator at_least(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        try {
          std::size_t end = 0;
          const long value = std::stol(text, &end);
          if (end == text.size() && value >= minimum) return {};
        } catch (const std::exception&) {
          // reported below like any other bad value
        }
        return "must be an integer >= " + std::to_string(minimum) + ", got '" + text + "'";
      },
      ">=" + std::to_string(minimum));
}

}  // namespace haloflag::bench
