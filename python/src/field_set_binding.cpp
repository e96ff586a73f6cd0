// _core.FieldSet: a kernels::FieldSet made from the addresses and byte strides that
// haloflag/arrays.py read from the user's arrays. Made once per set of arrays, so an exchange
// call passes a ready FieldSet and converts nothing.
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace nb = nanobind;

namespace haloflag::python {
namespace {

/// (address, element bytes, stride along x, y, z in bytes)
using VariableSpec = std::tuple<std::uintptr_t, int, std::int64_t, std::int64_t, std::int64_t>;

kernels::FieldSet make_fields(const std::vector<VariableSpec>& specs) {
  if (specs.empty() || specs.size() > static_cast<std::size_t>(kernels::kMaxVariables)) {
    throw halo::ConfigError("a field set holds 1 to " + std::to_string(kernels::kMaxVariables) +
                            " variables, not " + std::to_string(specs.size()));
  }
  kernels::FieldSet fields;
  for (const auto& [address, bytes, sx, sy, sz] : specs) {
    kernels::VariableView& view = fields.variables[fields.variable_count++];
    view.base = reinterpret_cast<std::byte*>(address);
    view.stride[0] = sx;
    view.stride[1] = sy;
    view.stride[2] = sz;
    view.element_bytes = bytes;
  }
  fields.alignment = kernels::alignment_of(fields);
  return fields;
}

}  // namespace

void bind_field_set(nb::module_& module) {
  nb::class_<kernels::FieldSet>(module, "FieldSet")
      .def("__init__", [](kernels::FieldSet* self, const std::vector<VariableSpec>& specs) {
        new (self) kernels::FieldSet(make_fields(specs));
      })
      .def_prop_ro("variable_count", [](const kernels::FieldSet& f) { return f.variable_count; })
      .def_prop_ro("alignment", [](const kernels::FieldSet& f) { return f.alignment; });
}

}  // namespace haloflag::python
