#include "haloflag/halo/host_field.hpp"

#include "haloflag/halo/errors.hpp"

namespace haloflag::halo {

HostField::HostField(const Index3& extent, int vars, double initial) : extent_(extent) {
  if (vars < 1 || extent[0] < 1 || extent[1] < 1 || extent[2] < 1) {
    throw GeometryError("a field needs at least one variable and one cell per axis (got " +
                        std::to_string(vars) + " variables, extent " + format_triple(extent) + ")");
  }
  data_.assign(static_cast<std::size_t>(vars),
               std::vector<double>(static_cast<std::size_t>(cells()), initial));
}

}  // namespace haloflag::halo
