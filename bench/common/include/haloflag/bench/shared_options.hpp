// Options that several programs declare alike (the benchmarks of bench/ and the stencil examples
// of examples/): one spelling, one check and one help format for each, so that `--backend` or
// `--timeout` reads and fails the same way in every tool. Each takes the help text, which says
// what the option means to that program.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "haloflag/bench/integer_validator.hpp"

namespace haloflag::bench {

// An option that takes one of `choices`, shown as "a|b|c=default" in the help, with CLI11's own
// message for any other word.
CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value,
                        const std::vector<std::string>& choices, const std::string& help);

// An integer option of at least `minimum` (at_least: "must be an integer >= N"), its default
// shown.
template <class Integer>
CLI::Option* add_count(CLI::App& app, const std::string& name, Integer& value,
                       const std::string& help, long minimum) {
  return app.add_option(name, value, help)->check(at_least(minimum))->capture_default_str();
}

// --backend auto|host|cuda|hip (bench/common/backend_choice.hpp reads it).
CLI::Option* add_backend_option(CLI::App& app, std::string& backend_name,
                                const std::string& help =
                                    "where the kernels run; auto: the best present");

// --gpu N, at least 0; no default shown (the program picks the node-local rank's GPU).
CLI::Option* add_gpu_option(CLI::App& app, int& gpu,
                            const std::string& help =
                                "GPU index for every rank (default: node-local rank)");

// --timeout SECONDS, from a millisecond to `most_seconds`.
CLI::Option* add_timeout_option(CLI::App& app, double& seconds, const std::string& help,
                                double most_seconds = 86400.0);

// --json FILE (its default shown when there is one).
CLI::Option* add_json_option(CLI::App& app, std::string& path, const std::string& help);

// --node-size N, at least 0: ranks per node for the node transport. After parsing,
// apply_node_size() hands it on to the library.
CLI::Option* add_node_size_option(CLI::App& app, int& node_size, const std::string& help);

// The library splits nodes by HALOFLAG_NODE_SIZE: --node-size, when given, sets it; otherwise
// `node_size` takes the environment's value, when there is one, for the report.
void apply_node_size(const CLI::App& app, int& node_size);

}  // namespace haloflag::bench
