#include "haloflag/examples/stencil_options.hpp"

#include <CLI/CLI.hpp>

#include "haloflag/bench/integer_validator.hpp"

namespace haloflag::examples {

CLI::Option* add_transport_option(CLI::App& app, std::string& transport, const std::string& help) {
  return app.add_option("--transport", transport, help)
      ->check(CLI::IsMember({"auto", "mpi", "node"}))
      ->capture_default_str();
}

CLI::Option* add_host_threads_option(CLI::App& app, int& threads) {
  return app.add_option("--host-threads", threads,
                        "host backend: CPU threads that play the resident kernel's grid")
      ->check(haloflag::bench::at_least(1))
      ->capture_default_str();
}

void refuse_variant(const std::string& name, const std::string& expected) {
  throw CLI::ValidationError("--variant",
                             "unknown variant '" + name + "' (expected " + expected + ")");
}

}  // namespace haloflag::examples
