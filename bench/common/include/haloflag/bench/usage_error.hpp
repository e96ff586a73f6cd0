// A request that cannot be run as asked (a config for another rank count, a backend that is not
// built): every rank finds it alike, and it ends the run with exit status 2 like a bad option.
#pragma once

#include <string>

#include "haloflag/error.hpp"

namespace haloflag::bench {

class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ErrorKind::usage, what) {}
};

inline constexpr int kUsageExitCode = 2;

}  // namespace haloflag::bench
