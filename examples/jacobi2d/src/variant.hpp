// One way of running the iterations: the best conventional loop (boundary rows first on a
// high-priority stream, a Comb-style exchange while the interior updates), haloflag's
// stream-ordered exchange, or the whole exchange from the example's own resident kernel. Each
// owns two fields on its backend, of float or double.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "haloflag/examples/stencil_variant.hpp"
#include "problem.hpp"
#include "run_settings.hpp"

namespace jacobi2d {

// In the order the program runs and reports them.
enum class VariantKind { conventional_overlap, stream, resident };

std::string_view to_string(VariantKind kind);

// A run computes the norm at every step i (from 0) with i % nccheck == 0; run_updates_only()
// computes the same steps' norms too.
class Variant : public haloflag::examples::StencilVariant<VariantKind> {
 public:
  // The norms of the last run's checks, as every rank knows them.
  virtual const std::vector<double>& norms() const = 0;
  // This rank's rows after the last step (float values widened to double, exactly).
  virtual std::vector<double> current_rows() const = 0;
};

// Each variant's factory, defined in the variant's own file. All collective over `comm`; the
// fields are of problem.precision's type.
using VariantFactory = std::unique_ptr<Variant>(const Problem& problem, MPI_Comm comm,
                                                const RunSettings& settings);
VariantFactory make_conventional_overlap;
VariantFactory make_stream;
VariantFactory make_resident;

// The variant `kind`.
std::unique_ptr<Variant> make_variant(VariantKind kind, const Problem& problem, MPI_Comm comm,
                                      const RunSettings& settings);

// Rows as doubles (exact for float).
template <class Real>
std::vector<double> widened(const std::vector<Real>& values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace jacobi2d
