// tune() and Exchange::tuned(): the public face of the work-order tuner
// (work_order_tuner.cpp), which sets up its own temporary Exchanges.
#include "haloflag/halo/tune.hpp"

#include <utility>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/exchange.hpp"
#include "tuning/work_order_tuner.hpp"

namespace haloflag::halo {

TunedOptions tune(const ExchangeConfig& config, const kernels::FieldSet& fields,
                  const ExchangeOptions& options) {
  TunedOptions tuned{options, {}};
  // Fixed from here on: the tuner's trial Exchanges and the caller's final one run it as given.
  tuned.options.tuning = Tuning::fixed;
  tuned.report = detail::tune_work_order(config, fields, tuned.options);
  return tuned;
}

TunedOptions tune(const Geometry& geometry, const kernels::FieldSet& fields,
                  const ExchangeOptions& options) {
  return tune(make_exchange_config(geometry), fields, options);
}

Exchange Exchange::tuned(const ExchangeConfig& config, const kernels::FieldSet& fields,
                         const ExchangeOptions& options) {
  TunedOptions chosen = tune(config, fields, options);
  Exchange exchange(config, fields, chosen.options);
  // The constructor reports its options as fixed; this one's were chosen, and says how.
  exchange.tuning_ = std::move(chosen.report);
  return exchange;
}

Exchange Exchange::tuned(const Geometry& geometry, const kernels::FieldSet& fields,
                         const ExchangeOptions& options) {
  return tuned(make_exchange_config(geometry), fields, options);
}

}  // namespace haloflag::halo
