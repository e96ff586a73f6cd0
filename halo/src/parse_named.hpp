// An option's name back to its value, through the value's own to_string: one place that says
// which names are valid when one is not.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace haloflag::halo::detail {

// Throws std::invalid_argument: "unknown <what> '<name>' (valid: a, b, c)".
template <class Value, class Values>
Value parse_named(std::string_view name, const Values& values, std::string_view what) {
  std::string valid;
  for (const Value value : values) {
    if (to_string(value) == name) return value;
    valid.append(valid.empty() ? "" : ", ").append(to_string(value));
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) +
                              "' (valid: " + valid + ")");
}

}  // namespace haloflag::halo::detail
