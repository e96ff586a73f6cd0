#include "verified_exchange.hpp"

namespace haloflag::bench {

std::string run_verified_exchange(halo::Exchange& exchange, halo::DeviceFields& fields,
                                  halo::HostField& scratch, const halo::ExchangeVerifier& verifier) {
  // Values depend on the epoch, so ghosts left over from an earlier exchange are caught.
  const std::uint64_t epoch = exchange.epoch() + 1;
  verifier.fill(scratch, epoch);
  fields.upload(scratch);
  exchange.run();
  fields.download(scratch);
  return verifier.check(scratch, epoch);
}

}  // namespace haloflag::bench
