#include "jacobi_variant.hpp"

namespace jacobi3d {

std::string_view to_string(VariantKind kind) {
  switch (kind) {
    case VariantKind::conventional: return "conventional";
    case VariantKind::conventional_overlap: return "conventional_overlap";
    case VariantKind::resident: return "resident";
    case VariantKind::stream: return "stream";
  }
  return "unknown";
}

std::unique_ptr<JacobiVariant> make_variant(VariantKind kind, const Problem& problem,
                                            MPI_Comm comm, const RunSettings& settings) {
  switch (kind) {
    case VariantKind::conventional: return make_conventional(problem, comm, settings);
    case VariantKind::conventional_overlap:
      return make_conventional_overlap(problem, comm, settings);
    case VariantKind::resident: return make_resident(problem, comm, settings);
    case VariantKind::stream: return make_stream(problem, comm, settings);
  }
  return nullptr;
}

}  // namespace jacobi3d
