// The pieces of JSON the tools' reports share, so that the same facts have the same keys in
// every report (bench/README.md lists each report's keys). No MPI here: notify_latency uses them.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>

#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/gpu_facts.hpp"

namespace haloflag::bench {

// The number, or null.
nlohmann::json optional_json(const std::optional<double>& value);

// build_info(): haloflag_version, cxx_compiler, gpu_compiler, build_type, gpu_backend_built.
nlohmann::json build_json();

// name, requested, reason, emulated_on_cpu.
nlohmann::json backend_json(const BackendChoice& backend);

// index, name, pci_bus_id, architecture, multiprocessors, driver_version, runtime_version; null
// without a GPU.
nlohmann::json gpu_json(const std::optional<GpuFacts>& gpu);

}  // namespace haloflag::bench
