// The exchanges of a conventional loop over two fields that swap roles every step (one is read,
// the other written, then the other way round): one Exchange per field, since an Exchange is
// bound to the fields it packs. jacobi2d's conventional_overlap and jacobi3d's conventional and
// conventional_overlap variants run one of them after each step.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::examples {

class ExchangePerField {
 public:
  // Collective over options.comm: field 0's Exchange, then field 1's.
  ExchangePerField(const haloflag::halo::Geometry& geometry,
                   const haloflag::kernels::FieldSet& field0,
                   const haloflag::kernels::FieldSet& field1,
                   const haloflag::halo::ExchangeOptions& options);

  // Runs field k's exchange: packs its owned cells and fills its ghost cells.
  void run(int k) { exchanges_[k]->run(); }

  // "exchange comb_graph<during>: pack ..." (the strategy and the kernels' launch), for a
  // variant's launch description; `during` says what runs beside it.
  std::string describe(const std::string& during = {}) const;

 private:
  std::array<std::unique_ptr<haloflag::halo::Exchange>, 2> exchanges_;
};

}  // namespace haloflag::examples
