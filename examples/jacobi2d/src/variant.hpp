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

#include "haloflag/examples/release_first.hpp"
#include "problem.hpp"
#include "run_settings.hpp"

namespace jacobi2d {

// In the order the program runs and reports them.
enum class VariantKind { conventional_overlap, stream, resident };

std::string_view to_string(VariantKind kind);

class Variant {
 public:
  virtual ~Variant() = default;
  virtual VariantKind kind() const = 0;
  // Puts the initial field into both fields.
  virtual void reset() = 0;
  // Runs `iterations` steps from the current field, the norm at every step i (from 0) with
  // i % nccheck == 0; returns this rank's seconds for the run. Throws on any failure.
  virtual double run(int iterations) = 0;
  // The same steps' updates and norms without the exchange: the update's own seconds. It leaves
  // the field stale (ghost rows not exchanged): reset() before a run that is checked.
  virtual double run_updates(int iterations) = 0;
  // The norms of the last run's checks, as every rank knows them.
  virtual const std::vector<double>& norms() const = 0;
  // This rank's rows after the last step (float values widened to double, exactly).
  virtual std::vector<double> current_rows() const = 0;
  // Kernel shapes and exchange strategy, for the report.
  virtual std::string launch_description() const = 0;
};

// Destroys a program's variants with the stream variant first (haloflag/examples/
// release_first.hpp says why). Declare it after the vector.
using StreamVariantsGoFirst = haloflag::examples::ReleaseFirst<Variant, VariantKind::stream>;

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
