// Test support: exchanges whose every ghost cell is checked against what the neighbour owns.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"

namespace haloflag::test {

// Runs `exchanges` exchanges on fields filled anew for each; the first wrong ghost cell's
// report, or "" when every cell of every exchange is right.
inline std::string run_verified(halo::Exchange& exchange, halo::DeviceFields& fields,
                                const halo::ExchangeVerifier& verifier, int exchanges) {
  halo::HostField host(verifier.field_extent(), verifier.vars());
  for (int i = 0; i < exchanges; ++i) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    verifier.fill(host, epoch);
    fields.upload(host);
    exchange.run();
    fields.download(host);
    const std::string report = verifier.check_all(host, epoch);
    if (!report.empty()) return report;
  }
  return {};
}

}  // namespace haloflag::test
