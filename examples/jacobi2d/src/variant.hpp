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

// Destroys a program's variants with the stream variant first: its exchange's kernels may stay
// resident between runs, and freeing another variant's device memory synchronizes the device.
// Declare it after the vector, so that it runs before the vector's own destructor.
class StreamVariantsGoFirst {
 public:
  explicit StreamVariantsGoFirst(std::vector<std::unique_ptr<Variant>>& variants)
      : variants_(variants) {}
  StreamVariantsGoFirst(const StreamVariantsGoFirst&) = delete;
  StreamVariantsGoFirst& operator=(const StreamVariantsGoFirst&) = delete;
  ~StreamVariantsGoFirst();

 private:
  std::vector<std::unique_ptr<Variant>>& variants_;
};

// All collective over `comm`. Real must be problem.precision's; each is defined for float and
// double.
template <class Real>
std::unique_ptr<Variant> make_conventional_overlap(const Problem& problem, MPI_Comm comm,
                                                   const RunSettings& settings);
template <class Real>
std::unique_ptr<Variant> make_stream(const Problem& problem, MPI_Comm comm,
                                     const RunSettings& settings);
template <class Real>
std::unique_ptr<Variant> make_resident(const Problem& problem, MPI_Comm comm,
                                       const RunSettings& settings);

// The variant `kind` with fields of problem.precision's type.
std::unique_ptr<Variant> make_variant(VariantKind kind, const Problem& problem, MPI_Comm comm,
                                      const RunSettings& settings);

// Rows as doubles (exact for float).
template <class Real>
std::vector<double> widened(const std::vector<Real>& values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace jacobi2d
