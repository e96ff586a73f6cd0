#include "haloflag/halo/host_field.hpp"

#include "haloflag/halo/errors.hpp"
#include "memory_check.hpp"

namespace haloflag::halo {

HostField::HostField(const Index3& extent, int vars, double initial) : extent_(extent) {
  if (vars < 1 || extent[0] < 1 || extent[1] < 1 || extent[2] < 1) {
    throw GeometryError("a field needs at least one variable and one cell per axis (got " +
                        std::to_string(vars) + " variables, extent " + format_triple(extent) + ")");
  }
  detail::require_host_memory(
      detail::checked_bytes(detail::checked_bytes(cells(), sizeof(double)), vars),
      "a host field of " + format_triple(extent, 'x') + " cells x " + std::to_string(vars) +
          " variables");
  data_.assign(static_cast<std::size_t>(vars),
               std::vector<double>(static_cast<std::size_t>(cells()), initial));
}

kernels::FieldSet HostField::view() {
  kernels::FieldSet fields{};
  fields.variable_count = vars();
  for (int v = 0; v < vars(); ++v) fields.variables[v] = kernels::dense(variable(v), extent_[0], extent_[1]);
  fields.alignment = kernels::alignment_of(fields);
  return fields;
}

}  // namespace haloflag::halo
