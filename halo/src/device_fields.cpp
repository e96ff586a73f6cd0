#include "haloflag/halo/device_fields.hpp"

#include "haloflag/halo/errors.hpp"
#include "memory_check.hpp"

namespace haloflag::halo {

DeviceFields::DeviceFields(notify::Backend backend, const Index3& extent, int vars)
    : extent_(extent) {
  if (vars < 1 || vars > kernels::kMaxVariables) {
    throw ConfigError("fields need 1 to " + std::to_string(kernels::kMaxVariables) +
                      " variables (got " + std::to_string(vars) + ")");
  }
  const std::int64_t cells = detail::checked_bytes(extent[0] * extent[1], extent[2]);
  const std::int64_t bytes = detail::checked_bytes(cells, sizeof(double));
  // Refused before any variable is allocated: the host backend's device memory is host memory.
  const std::string what = "device fields of " + format_triple(extent, 'x') + " cells x " +
                           std::to_string(vars) + " variables";
  if (backend == notify::Backend::host) {
    detail::require_host_memory(detail::checked_bytes(bytes, vars), what + " (host backend)");
  } else {
    detail::require_gpu_memory(detail::checked_bytes(bytes, vars), what);
  }
  if (bytes < 0) {
    throw ConfigError("device fields of " + format_triple(extent, 'x') + " cells: too many bytes");
  }
  for (int v = 0; v < vars; ++v) variables_.emplace_back(backend, static_cast<std::size_t>(bytes));
}

kernels::FieldSet DeviceFields::view() const {
  kernels::FieldSet fields{};
  fields.variable_count = vars();
  for (int v = 0; v < vars(); ++v) {
    fields.variables[v] = static_cast<double*>(variables_[static_cast<std::size_t>(v)].data());
  }
  return fields;
}

void DeviceFields::check_shape(const HostField& field) const {
  if (field.extent() != extent_ || field.vars() != vars()) {
    throw ConfigError("host field " + format_triple(field.extent()) + " x " +
                      std::to_string(field.vars()) + " vars does not match device fields " +
                      format_triple(extent_) + " x " + std::to_string(vars()) + " vars");
  }
}

void DeviceFields::upload(const HostField& field) {
  check_shape(field);
  for (int v = 0; v < vars(); ++v) {
    auto& memory = variables_[static_cast<std::size_t>(v)];
    memory.copy_from_host(field.variable(v), memory.bytes());
  }
}

void DeviceFields::download(HostField& field) const {
  check_shape(field);
  for (int v = 0; v < vars(); ++v) {
    const auto& memory = variables_[static_cast<std::size_t>(v)];
    memory.copy_to_host(field.variable(v), memory.bytes());
  }
}

}  // namespace haloflag::halo
