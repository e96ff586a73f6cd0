// haloflag_check_config: validates communication config files (docs/comb_config_format.md).
// Prints a one-line summary per valid file; for an invalid one prints every problem as
// `file:line: reason` on stderr. Exits 0 only when every file is valid.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/errors.hpp"

namespace {

std::string summary(const haloflag::halo::ExchangeConfig& config) {
  std::size_t sends = 0;
  std::int64_t bytes = 0;
  std::size_t most_sends = 0;
  for (const auto& rank : config.rank_messages) {
    sends += rank.sends.size();
    most_sends = std::max(most_sends, rank.sends.size());
    for (const auto& message : rank.sends) bytes += message.bytes;
  }
  return std::to_string(config.ranks) + " ranks, " + std::to_string(sends) + " messages (at most " +
         std::to_string(most_sends) + " per rank), " + std::to_string(bytes) + " bytes per exchange";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CONFIG_FILE...\n", argv[0]);
    return 2;
  }
  int invalid = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      const auto config = haloflag::halo::read_config_file(argv[i]);
      std::printf("%s: valid: %s\n", argv[i], summary(config).c_str());
    } catch (const haloflag::halo::ConfigError& error) {
      for (const auto& problem : error.problems()) std::fprintf(stderr, "%s\n", problem.c_str());
      ++invalid;
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s: %s\n", argv[i], error.what());
      ++invalid;
    }
  }
  return invalid == 0 ? 0 : 1;
}
