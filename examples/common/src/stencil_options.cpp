#include "haloflag/examples/stencil_options.hpp"

#include <CLI/CLI.hpp>

#include "haloflag/bench/integer_validator.hpp"
#include "haloflag/bench/shared_options.hpp"

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

CLI::Option* add_node_piece_bytes_option(CLI::App& app, int& bytes) {
  return haloflag::bench::add_count(
      app, "--node-piece-bytes", bytes,
      "node transport: bytes of a piece, the share of a message one block moves at a time (at "
      "least a block's threads times the element size); 0: the library's default "
      "(kernels::LaunchSettings), or, where the resident kernel's sends update their cells, one "
      "element a thread while that fills at most three quarters of its grid",
      0);
}

CLI::Option* add_sends_update_option(CLI::App& app, std::string& choice,
                                     const std::string& auto_rule) {
  return haloflag::bench::add_choice(
      app, "--sends-update", choice, {"auto", "on", "off"},
      "resident: on: the exchange's sends update the boundary cells they send, with no grid "
      "barrier before the start; off: the boundary first, then a grid barrier, then the start; "
      "auto: " + auto_rule + " (examples/common/README.md)");
}

void refuse_variant(const std::string& name, const std::string& expected) {
  throw CLI::ValidationError("--variant",
                             "unknown variant '" + name + "' (expected " + expected + ")");
}

}  // namespace haloflag::examples
