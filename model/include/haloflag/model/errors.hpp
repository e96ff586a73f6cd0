/// @file
/// Exceptions of the model library. Their messages name what failed: the file and key path of a
/// parameter file, the rank and placement of a mapping, the value at fault.
#pragma once

#include <stdexcept>

#include "haloflag/halo/errors.hpp"

namespace haloflag::model {

/// A parameter or pack/unpack table file that cannot be used. The reader collects every problem
/// ("<file>: <key.path>: reason") so one run shows them all; what() joins them by newlines.
class ParamsError : public halo::ProblemListError {
 public:
  using halo::ProblemListError::ProblemListError;
};

/// A prediction that cannot be made: a config whose ranks do not fit the rank mapping, a bad
/// mapping, a config that contradicts itself (peer out of range).
class ModelError : public Error {
 public:
  /// A model error with message `what` (kind config).
  explicit ModelError(const std::string& what) : Error(ErrorKind::config, what) {}
};

}  // namespace haloflag::model
