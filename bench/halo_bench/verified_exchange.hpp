// One exchange whose result is checked cell by cell: fill the owned cells for the exchange's
// epoch, upload, exchange, download, compare every ghost cell with what the neighbour owns.
// The two halves are separate so that a timed loop can time the exchange alone.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "timed_exchange.hpp"

namespace haloflag::bench {

// How much of `scratch` to rewrite before an exchange: the whole field, or only the shell that
// an exchange reads and writes (ExchangeVerifier::refresh; right when `scratch` was filled whole
// for the same verifier before, and cheaper on large fields).
enum class FieldFill { whole, shell };

// Fills `scratch` with the values of the exchange's next epoch and uploads them; returns that
// epoch. `scratch` has the fields' shape.
std::uint64_t prepare_verified_exchange(const TimedExchange& exchange, halo::DeviceFields& fields,
                                        halo::HostField& scratch,
                                        const halo::ExchangeVerifier& verifier,
                                        FieldFill fill = FieldFill::whole);

// After exchange `epoch` ran: downloads into `scratch` and compares. "" when every cell is
// right; otherwise what was wrong, from ExchangeVerifier::check.
std::string check_verified_exchange(halo::DeviceFields& fields, halo::HostField& scratch,
                                    const halo::ExchangeVerifier& verifier, std::uint64_t epoch);

// Both halves around the exchange's next epoch.
std::string run_verified_exchange(TimedExchange& exchange, halo::DeviceFields& fields,
                                  halo::HostField& scratch, const halo::ExchangeVerifier& verifier);

}  // namespace haloflag::bench
