#include "verified_exchange.hpp"

namespace haloflag::bench {

std::uint64_t prepare_verified_exchange(const TimedExchange& exchange, halo::DeviceFields& fields,
                                        halo::HostField& scratch,
                                        const halo::ExchangeVerifier& verifier, FieldFill fill) {
  // Values depend on the epoch, so ghosts left over from an earlier exchange are caught.
  const std::uint64_t epoch = exchange.epoch() + 1;
  if (fields.element_bytes() != static_cast<int>(sizeof(double))) {
    fields.upload_encoded(verifier, epoch, fill == FieldFill::whole);
    return epoch;
  }
  if (fill == FieldFill::whole) {
    verifier.fill(scratch, epoch);
  } else {
    verifier.refresh(scratch, epoch);
  }
  fields.upload(scratch);
  return epoch;
}

std::string check_verified_exchange(halo::DeviceFields& fields, halo::HostField& scratch,
                                    const halo::ExchangeVerifier& verifier, std::uint64_t epoch) {
  if (fields.element_bytes() != static_cast<int>(sizeof(double))) {
    return fields.check_encoded(verifier, epoch);
  }
  fields.download(scratch);
  return verifier.check(scratch, epoch);
}

std::string run_verified_exchange(TimedExchange& exchange, halo::DeviceFields& fields,
                                  halo::HostField& scratch, const halo::ExchangeVerifier& verifier) {
  const std::uint64_t epoch = prepare_verified_exchange(exchange, fields, scratch, verifier);
  exchange.run();
  return check_verified_exchange(fields, scratch, verifier, epoch);
}

}  // namespace haloflag::bench
