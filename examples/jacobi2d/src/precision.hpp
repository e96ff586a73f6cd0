// The field's element type, float (the peer's default) or double (--precision). Everything that
// touches field values is a template on it, `Real`; with_real() is where the run-time choice
// becomes the type.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace jacobi2d {

enum class Precision { float32, float64 };

constexpr std::string_view to_string(Precision precision) {
  return precision == Precision::float32 ? "float" : "double";
}

constexpr int element_bytes(Precision precision) {
  return precision == Precision::float32 ? 4 : 8;
}

// Throws std::invalid_argument for anything but "float" or "double".
inline Precision precision_from_name(const std::string& name) {
  if (name == "float") return Precision::float32;
  if (name == "double") return Precision::float64;
  throw std::invalid_argument("--precision must be float or double, got '" + name + "'");
}

// Calls `body.template operator()<Real>()` with Real = float or double as `precision` says.
template <class Body>
decltype(auto) with_real(Precision precision, Body&& body) {
  if (precision == Precision::float32) return body.template operator()<float>();
  return body.template operator()<double>();
}

}  // namespace jacobi2d
