// How a variant runs: the examples' shared settings (backend, deadline, launch shapes, transport,
// progress: haloflag/examples/variant_settings.hpp) and this example's choice of the conventional
// variants' exchange.
#pragma once

#include <optional>

#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/strategy.hpp"

namespace jacobi3d {

struct RunSettings : haloflag::examples::VariantSettings {
  // The exchange strategy of the conventional variants (comb_fused or comb_graph); unset: the
  // conventional loop's comb_fused and the overlapped loop's comb_graph (its kernels replayed as
  // graphs: the best conventional loop, with graphs where they help).
  std::optional<haloflag::halo::Strategy> conventional_strategy;
  // The resident kernel's blocks take the interior's last two rounds of column runs from a
  // counter, so that blocks that sent pieces first take fewer; false: every run dealt by block.
  bool interior_by_counter = true;
};

using haloflag::examples::exchange_options;

}  // namespace jacobi3d
