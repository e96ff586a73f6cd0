#include "haloflag/bench/json_sections.hpp"

#include "haloflag/bench/build_info.hpp"

namespace haloflag::bench {

using nlohmann::json;

json optional_json(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json build_json() {
  const BuildInfo& build = build_info();
  return {{"haloflag_version", build.haloflag_version},
          {"cxx_compiler", build.cxx_compiler},
          {"gpu_compiler", build.gpu_compiler},
          {"build_type", build.build_type},
          {"gpu_backend_built", build.gpu_backend_built}};
}

json backend_json(const BackendChoice& backend) {
  return {{"name", notify::to_string(backend.backend)},
          {"requested", backend.requested},
          {"reason", backend.reason},
          {"emulated_on_cpu", backend.emulated()}};
}

json gpu_json(const std::optional<GpuFacts>& gpu) {
  if (!gpu) return nullptr;
  return {{"index", gpu->index},
          {"name", gpu->name},
          {"pci_bus_id", gpu->pci_bus_id},
          {"architecture", gpu->architecture},
          {"multiprocessors", gpu->multiprocessors},
          {"driver_version", gpu->driver_version},
          {"runtime_version", gpu->runtime_version}};
}

}  // namespace haloflag::bench
