/// @file
/// The one base of every exception the haloflag libraries throw (docs/reliability.md, "One error
/// hierarchy"): catch haloflag::Error and ask kind() what went wrong, or catch the library's own
/// types (halo::ConfigError, halo::ExchangeError, kernels::CoResidencyError, ...), which all
/// derive from it. An Exchange's errors keep the kind of their cause: a set-up that failed on
/// another rank for a bad config is an ExchangeError of kind config on every rank.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace haloflag {

/// What went wrong, for callers that handle failures by kind.
enum class ErrorKind {
  config,        ///< a malformed or inconsistent config, option or parameter file; peers that disagree
  geometry,      ///< a decomposition that cannot be built
  co_residency,  ///< a persistent or cooperative grid that cannot be resident at once
  peer,          ///< a peer that did not answer, died, or sent what was not agreed
  timeout,       ///< a wait that passed its deadline
  mpi,           ///< an MPI call that failed
  gpu,           ///< a GPU runtime call or kernel that failed
  usage,         ///< a call the API does not allow now (a moved-from Exchange, an abort, ...)
  other,         ///< an exception from outside haloflag (the C++ library, the system)
};

/// The kind's name, spelled exactly as its enumerator (e.g. "config", "co_residency", "mpi").
std::string_view to_string(ErrorKind kind);

/// Base of every exception haloflag throws: a message and an ErrorKind.
class Error : public std::runtime_error {
 public:
  /// An error of `kind` with the message `what`.
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  /// What kind of failure this is.
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

/// The kind of any exception: its own for a haloflag::Error, usage for a std::logic_error (an
/// argument the callee refused), other for the rest.
ErrorKind kind_of(const std::exception& error) noexcept;

}  // namespace haloflag
