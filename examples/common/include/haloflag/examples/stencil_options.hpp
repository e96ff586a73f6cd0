// What the command lines of the stencil examples share beyond the tools' common options
// (haloflag/bench/shared_options.hpp): --transport, --host-threads, the resident kernel's
// --node-piece-bytes and --sends-update, and the reading of a --variant list.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"
#include "haloflag/bench/option_values.hpp"

namespace haloflag::examples {

// --transport auto|mpi|node: the path of each peer's ghost cells (haloflag/halo/transport.hpp).
CLI::Option* add_transport_option(CLI::App& app, std::string& transport, const std::string& help);

// --host-threads N, at least 1: the CPU threads that play the resident kernel's grid on the
// host backend (HostTeam).
CLI::Option* add_host_threads_option(CLI::App& app, int& threads);

// --node-piece-bytes N: the node transport's piece size (VariantSettings::node_piece_bytes).
CLI::Option* add_node_piece_bytes_option(CLI::App& app, int& bytes);

// --sends-update auto|on|off: whether the resident kernel's sends update the boundary cells they
// send (VariantSettings::sends_update_cells); `auto_rule` says what auto does.
CLI::Option* add_sends_update_option(CLI::App& app, std::string& choice,
                                     const std::string& auto_rule);

// Throws CLI::ValidationError: --variant named `name`, which is none of `expected`.
[[noreturn]] void refuse_variant(const std::string& name, const std::string& expected);

// The variants a comma-separated --variant list names, in `kinds` order and each once: a kind by
// its name (to_string(kind)), every kind by "all", and the kinds for which `also_named(name,
// kind)` is true (an example's own shorthands). Throws CLI::ValidationError for any other word,
// ending "(expected <expected>)".
template <class Kind, std::size_t N, class AlsoNamed>
std::vector<Kind> parse_variant_list(const std::string& text, const std::array<Kind, N>& kinds,
                                     const std::string& expected, AlsoNamed also_named) {
  std::array<bool, N> chosen{};
  for (const std::string& name : haloflag::bench::split_list(text)) {
    bool known = false;
    for (std::size_t k = 0; k < N; ++k) {
      const bool named = name == to_string(kinds[k]) || name == "all" || also_named(name, kinds[k]);
      chosen[k] = chosen[k] || named;
      known = known || named;
    }
    if (!known) refuse_variant(name, expected);
  }
  std::vector<Kind> variants;
  for (std::size_t k = 0; k < N; ++k) {
    if (chosen[k]) variants.push_back(kinds[k]);
  }
  return variants;
}

// The same without shorthands.
template <class Kind, std::size_t N>
std::vector<Kind> parse_variant_list(const std::string& text, const std::array<Kind, N>& kinds,
                                     const std::string& expected) {
  return parse_variant_list(text, kinds, expected, [](const std::string&, Kind) { return false; });
}

}  // namespace haloflag::examples
