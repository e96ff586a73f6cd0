// A request that cannot be run as asked (a config for another rank count, a backend that is not
// built): every rank finds it alike, and it ends the run with exit status 2 like a bad option.
#pragma once

#include <stdexcept>

namespace haloflag::bench {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kUsageExitCode = 2;

}  // namespace haloflag::bench
