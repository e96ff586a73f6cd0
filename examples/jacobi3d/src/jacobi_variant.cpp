#include "jacobi_variant.hpp"

namespace jacobi3d {

std::string_view to_string(VariantKind kind) {
  return kind == VariantKind::conventional ? "conventional" : "resident";
}

}  // namespace jacobi3d
