#include "haloflag/halo/device_fields.hpp"

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/memory_check.hpp"
#include "memory_check.hpp"

namespace haloflag::halo {

DeviceFields::DeviceFields(notify::Backend backend, const Index3& extent, int vars,
                           int element_bytes)
    : extent_(extent), element_bytes_(element_bytes) {
  if (vars < 1 || vars > kernels::kMaxVariables) {
    throw ConfigError("fields need 1 to " + std::to_string(kernels::kMaxVariables) +
                      " variables (got " + std::to_string(vars) + ")");
  }
  if (element_bytes < 1 || element_bytes > kernels::kMaxElementBytes) {
    throw ConfigError("field elements hold 1 to " + std::to_string(kernels::kMaxElementBytes) +
                      " bytes (got " + std::to_string(element_bytes) + ")");
  }
  const std::int64_t cells = detail::checked_bytes(extent[0] * extent[1], extent[2]);
  const std::int64_t bytes = detail::checked_bytes(cells, element_bytes);
  // Refused before any variable is allocated: the host backend's device memory is host memory.
  const std::string what = "device fields of " + format_triple(extent, 'x') + " cells x " +
                           std::to_string(vars) + " variables";
  require_device_memory(backend, detail::checked_bytes(bytes, vars), what);
  if (bytes < 0) {
    throw ConfigError("device fields of " + format_triple(extent, 'x') + " cells: too many bytes");
  }
  for (int v = 0; v < vars; ++v) variables_.emplace_back(backend, static_cast<std::size_t>(bytes));
}

kernels::FieldSet DeviceFields::view() const {
  kernels::FieldSet fields{};
  fields.variable_count = vars();
  for (int v = 0; v < vars(); ++v) {
    fields.variables[v] = kernels::variable_view(
        static_cast<std::byte*>(variables_[static_cast<std::size_t>(v)].data()), element_bytes_,
        1, extent_[0], extent_[0] * extent_[1]);
    fields.variables[v].element_bytes = element_bytes_;
  }
  fields.alignment = kernels::alignment_of(fields);
  return fields;
}

kernels::FieldSet DeviceFields::mirror_view() {
  if (mirror_.empty()) {
    for (const auto& memory : variables_) mirror_.emplace_back(memory.bytes());
  }
  kernels::FieldSet fields = view();
  for (int v = 0; v < vars(); ++v) {
    fields.variables[v].base = mirror_[static_cast<std::size_t>(v)].data();
  }
  return fields;
}

void DeviceFields::upload_encoded(const ExchangeVerifier& verifier, std::uint64_t epoch,
                                  bool whole) {
  const kernels::FieldSet mirror = mirror_view();
  verifier.fill_encoded(mirror, epoch, !whole);
  for (int v = 0; v < vars(); ++v) {
    const auto index = static_cast<std::size_t>(v);
    variables_[index].copy_from_host(mirror_[index].data(), mirror_[index].size());
  }
}

std::string DeviceFields::check_encoded(const ExchangeVerifier& verifier, std::uint64_t epoch) {
  const kernels::FieldSet mirror = mirror_view();
  for (int v = 0; v < vars(); ++v) {
    const auto index = static_cast<std::size_t>(v);
    variables_[index].copy_to_host(mirror_[index].data(), mirror_[index].size());
  }
  return verifier.check_encoded(mirror, epoch);
}

void DeviceFields::check_shape(const HostField& field) const {
  if (element_bytes_ != static_cast<int>(sizeof(double))) {
    throw ConfigError("fields of " + std::to_string(element_bytes_) +
                      "-byte elements copy to and from the host through upload_encoded and "
                      "check_encoded, not a HostField of doubles");
  }
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
