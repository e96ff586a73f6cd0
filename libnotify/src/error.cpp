#include "haloflag/error.hpp"

namespace haloflag {

// Each name is its enumerator's, so that a kind printed in a message or a report reads as the
// code that tests it (ErrorKind::co_residency prints "co_residency").
std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::config: return "config";
    case ErrorKind::geometry: return "geometry";
    case ErrorKind::co_residency: return "co_residency";
    case ErrorKind::peer: return "peer";
    case ErrorKind::timeout: return "timeout";
    case ErrorKind::mpi: return "mpi";
    case ErrorKind::gpu: return "gpu";
    case ErrorKind::usage: return "usage";
    case ErrorKind::other: return "other";
  }
  return "other";
}

ErrorKind kind_of(const std::exception& error) noexcept {
  if (const auto* ours = dynamic_cast<const Error*>(&error)) return ours->kind();
  if (dynamic_cast<const std::logic_error*>(&error) != nullptr) return ErrorKind::usage;
  return ErrorKind::other;
}

}  // namespace haloflag
