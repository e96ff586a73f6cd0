// Fuzz target: the communication config parser (halo::parse_config) on arbitrary text.
// Accepted configs must be self-consistent (one message list per rank) and survive
// write_config -> parse_config unchanged; rejections must be ConfigErrors whose every problem
// reads "fuzz-input:<line>: reason".
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_contract.hpp"
#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/errors.hpp"

namespace {

using haloflag::fuzz::must_accept;
using haloflag::fuzz::require;
using haloflag::halo::ConfigError;
using haloflag::halo::ExchangeConfig;

const std::string kSource(haloflag::fuzz::kSourceName);

ExchangeConfig parse_text(const std::string& text) {
  std::istringstream in(text);
  return haloflag::halo::parse_config(in, kSource);
}

void check_accepted(const ExchangeConfig& config) {
  require(config.ranks >= 1, "accepted a config with " + std::to_string(config.ranks) + " ranks");
  require(config.rank_messages.size() == static_cast<std::size_t>(config.ranks),
          "accepted a config whose message lists do not match its rank count");
  std::ostringstream written;
  haloflag::halo::write_config(written, config);
  const ExchangeConfig again =
      must_accept([&] { return parse_text(written.str()); }, "reading back the written config");
  require(again == config, "write_config -> parse_config changed the config:\n" + written.str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(haloflag::fuzz::as_text(data, size));
  haloflag::fuzz::check_reader<ConfigError>([&] { return parse_text(text); }, check_accepted);
  return 0;
}
