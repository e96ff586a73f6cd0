// One exchange whose result is checked cell by cell: fill the owned cells for the exchange's
// epoch, upload, exchange, download, compare every ghost cell with what the neighbour owns.
#pragma once

#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"

namespace haloflag::bench {

// Runs the exchange's next epoch. "" when every cell is right; otherwise what was wrong, from
// ExchangeVerifier::check. `scratch` has the fields' shape.
std::string run_verified_exchange(halo::Exchange& exchange, halo::DeviceFields& fields,
                                  halo::HostField& scratch, const halo::ExchangeVerifier& verifier);

}  // namespace haloflag::bench
