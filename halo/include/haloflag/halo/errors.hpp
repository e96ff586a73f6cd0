// Exceptions of the halo library. Their messages name what failed: the axis, rank, peer, tag or
// file:line involved and the offending value.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace haloflag::halo {

// A decomposition that cannot be built: bad sizes, a rank grid that does not match the number
// of ranks, a ghost wider than a subdomain, a rank out of range.
class GeometryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A communication config that is malformed or inconsistent. A parser collects every problem it
// finds (each "file:line: reason") so that one run shows them all; what() joins them by newlines.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& problem);
  explicit ConfigError(std::vector<std::string> problems);

  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  std::vector<std::string> problems_;
};

}  // namespace haloflag::halo
