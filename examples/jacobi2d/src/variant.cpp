#include "variant.hpp"

namespace jacobi2d {

std::string_view to_string(VariantKind kind) {
  switch (kind) {
    case VariantKind::conventional_overlap: return "conventional_overlap";
    case VariantKind::stream: return "stream";
    case VariantKind::resident: return "resident";
  }
  return "unknown";
}

std::unique_ptr<Variant> make_variant(VariantKind kind, const Problem& problem, MPI_Comm comm,
                                      const RunSettings& settings) {
  switch (kind) {
    case VariantKind::conventional_overlap:
      return make_conventional_overlap(problem, comm, settings);
    case VariantKind::stream: return make_stream(problem, comm, settings);
    case VariantKind::resident: return make_resident(problem, comm, settings);
  }
  return nullptr;
}

}  // namespace jacobi2d
