/// @file
/// Exceptions of the halo library. Their messages name what failed: the axis, rank, peer, tag or
/// file:line involved and the offending value.
#pragma once

#include <stdexcept>

#include "haloflag/error.hpp"
#include <string>
#include <vector>

namespace haloflag::halo {

/// A decomposition that cannot be built: bad sizes, a rank grid that does not match the number
/// of ranks, a ghost wider than a subdomain, a rank out of range.
class GeometryError : public Error {
 public:
  /// A geometry error with message `what`.
  explicit GeometryError(const std::string& what) : Error(ErrorKind::geometry, what) {}
};

/// An input file with one or more problems. Readers collect every problem they find (each naming
/// its place, e.g. "file:line: reason") so that one run shows them all; what() joins them by
/// newlines. Also the base of the model library's parameter-file errors.
class ProblemListError : public Error {
 public:
  /// An error listing one problem.
  explicit ProblemListError(const std::string& problem);
  /// An error listing `problems`.
  explicit ProblemListError(std::vector<std::string> problems);

  /// Every problem found.
  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// A communication config that is malformed or inconsistent.
class ConfigError : public ProblemListError {
 public:
  /// Same constructors as ProblemListError.
  using ProblemListError::ProblemListError;
};

/// An exchange that failed: at set-up (a rank's own error, or the name of the rank that failed),
/// or while exchanging (a deadline, an abort, an MPI error, a kernel fault), naming the rank, the
/// exchange and what it still waited for. Its kind is its cause's: a set-up that failed for a bad
/// config is kind config on every rank, a deadline timeout, a dead peer peer.
class ExchangeError : public Error {
 public:
  /// An exchange error of `kind` with message `what`.
  ExchangeError(ErrorKind kind, const std::string& what) : Error(kind, what) {}
};

}  // namespace haloflag::halo
