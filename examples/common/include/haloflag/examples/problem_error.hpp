// A size or rank count that a stencil example cannot decompose; the message names the option and
// the numbers. The run's start (run_start.hpp) reports it as a usage error (exit status 2).
#pragma once

#include <stdexcept>

namespace haloflag::examples {

class ProblemError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace haloflag::examples
