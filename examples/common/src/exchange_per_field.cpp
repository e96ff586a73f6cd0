#include "haloflag/examples/exchange_per_field.hpp"

namespace haloflag::examples {

ExchangePerField::ExchangePerField(const haloflag::halo::Geometry& geometry,
                                   const haloflag::kernels::FieldSet& field0,
                                   const haloflag::kernels::FieldSet& field1,
                                   const haloflag::halo::ExchangeOptions& options)
    : exchanges_{std::make_unique<haloflag::halo::Exchange>(geometry, field0, options),
                 std::make_unique<haloflag::halo::Exchange>(geometry, field1, options)} {}

std::string ExchangePerField::describe(const std::string& during) const {
  const haloflag::halo::Exchange& first = *exchanges_[0];
  return "exchange " + std::string(haloflag::halo::to_string(first.strategy())) + during + ": " +
         first.launch_description();
}

}  // namespace haloflag::examples
