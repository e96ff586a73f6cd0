#include "haloflag/error.hpp"

namespace haloflag {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::config: return "config";
    case ErrorKind::geometry: return "geometry";
    case ErrorKind::co_residency: return "co-residency";
    case ErrorKind::peer: return "peer";
    case ErrorKind::timeout: return "timeout";
    case ErrorKind::mpi: return "MPI";
    case ErrorKind::gpu: return "GPU";
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
