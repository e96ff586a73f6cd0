/// @file
/// Reading and writing communication configs as text (docs/comb_config_format.md).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

#include "haloflag/halo/exchange_config.hpp"

namespace haloflag::halo {

/// Version written in, and accepted from, a config file's header.
inline constexpr int kConfigFormatVersion = 1;
/// First word of a config file.
inline constexpr std::string_view kConfigMagic = "haloflag-comb-config";
/// The largest tag every MPI implementation must accept (MPI_TAG_UB >= 32767).
inline constexpr int kMaxPortableTag = 32767;

/// Writes the config. Each line of `comment` becomes a leading "# " comment line.
void write_config(std::ostream& out, const ExchangeConfig& config, std::string_view comment = {});
/// Writes the config to the file at `path`.
void write_config_file(const std::filesystem::path& path, const ExchangeConfig& config,
                       std::string_view comment = {});

/// Parses and validates a whole config. Every problem is collected as "<source>:<line>: reason";
/// if there is any, throws ConfigError with all of them. Checks: header and version, keywords,
/// fields (unknown, missing, repeated, non-numeric, negative or zero), rank sections (out of
/// range, repeated, missing), peers in range, tags unique per (peer, tag) among a rank's sends
/// and among its receives, every send matched by a receive of equal bytes at the peer and vice
/// versa, boxes inside the field and consistent with the declared bytes.
ExchangeConfig parse_config(std::istream& in, const std::string& source_name);
/// Reads and validates the config file at `path` (see parse_config).
ExchangeConfig read_config_file(const std::filesystem::path& path);

}  // namespace haloflag::halo
