// One way of running Jacobi iterations with a halo exchange after each: the conventional loop
// (a kernel launch and an exchange per iteration, the host waiting for each), the overlapped
// conventional loop (the boundary layer first, then the exchange while the interior updates),
// the resident kernel (one launch for all iterations, the exchange embedded in it) or the
// stream loop (a kernel launch and a stream-ordered exchange per iteration, the host waiting
// once per run). Each owns two field buffers on its backend, of float or double
// (Problem::precision).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "haloflag/examples/release_first.hpp"
#include "haloflag/halo/host_field.hpp"
#include "problem.hpp"
#include "run_settings.hpp"

namespace jacobi3d {

// In the order the program runs and reports them.
enum class VariantKind { conventional, conventional_overlap, resident, stream };

// The two host-driven loops a user writes without haloflag's resident kernels: the baseline of
// every ratio is the faster of them.
constexpr bool is_conventional(VariantKind kind) {
  return kind == VariantKind::conventional || kind == VariantKind::conventional_overlap;
}

std::string_view to_string(VariantKind kind);

class JacobiVariant {
 public:
  virtual ~JacobiVariant() = default;
  virtual VariantKind kind() const = 0;
  // Puts the initial field (ghosts included) into both buffers.
  virtual void reset() = 0;
  // Runs `iterations` steps from the current field; returns this rank's seconds for the whole
  // run (the host's steady clock; the resident kernel's run on a GPU measured by GPU events).
  // Throws on any failure.
  virtual double run(int iterations) = 0;
  // The update alone, for the update-rate report: `iterations` steps of this variant's update
  // kernels as run() launches them, with every exchange left out, timed as run() is (GPU events
  // on a GPU, the steady clock on the host). The ghost cells are not refreshed, so the field is
  // no longer the Jacobi solution afterwards: reset() before a run that is checked.
  virtual double run_updates_only(int iterations) = 0;
  // This rank's local field after the last step (float values widened to double, exactly).
  virtual haloflag::halo::HostField current() const = 0;
  // Kernel shapes and exchange strategy, for the report.
  virtual std::string launch_description() const = 0;
};

// Destroys a program's variants with the stream variant first (haloflag/examples/
// release_first.hpp says why). Declare it after the vector.
using StreamVariantsGoFirst = haloflag::examples::ReleaseFirst<JacobiVariant, VariantKind::stream>;

// Each variant's factory, defined in the variant's own file. All collective over `comm` (they
// build halo::Exchange objects); the fields are of problem.precision's type.
using VariantFactory = std::unique_ptr<JacobiVariant>(const Problem& problem, MPI_Comm comm,
                                                      const RunSettings& settings);
VariantFactory make_conventional;
VariantFactory make_conventional_overlap;
VariantFactory make_resident;
VariantFactory make_stream;

// The variant `kind`.
std::unique_ptr<JacobiVariant> make_variant(VariantKind kind, const Problem& problem,
                                            MPI_Comm comm, const RunSettings& settings);

}  // namespace jacobi3d
