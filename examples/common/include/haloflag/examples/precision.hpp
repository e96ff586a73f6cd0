// The field's element type of the stencil examples, float or double (--precision). Everything
// that touches field values is a template on it, `Real`; with_real() is where the run-time choice
// becomes the type. Each example brings these names into its own namespace with one
// `using namespace haloflag::examples::field_precision;` (its precision.hpp); its default
// precision lives in its options.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace haloflag::examples::field_precision {

enum class Precision { float32, float64 };

// "float" or "double": the name on the command line and in reports.
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

// Calls `body.template operator()<Real>()` with Real = float or double as `precision` says, and
// returns what it returns: `with_real(p, [&]<class Real>() { ... })`.
template <class Body>
decltype(auto) with_real(Precision precision, Body&& body) {
  if (precision == Precision::float32) return body.template operator()<float>();
  return body.template operator()<double>();
}

// A `Variant<Real>` made from `args`, Real as `precision` says, behind its base class `Base`:
// where a variant's run-time precision becomes the element type of all it runs.
template <class Base, template <class> class Variant, class... Args>
std::unique_ptr<Base> make_with_real(Precision precision, const Args&... args) {
  return with_real(precision, [&]<class Real>() -> std::unique_ptr<Base> {
    return std::make_unique<Variant<Real>>(args...);
  });
}

}  // namespace haloflag::examples::field_precision

namespace haloflag::examples {
using namespace field_precision;
}  // namespace haloflag::examples
