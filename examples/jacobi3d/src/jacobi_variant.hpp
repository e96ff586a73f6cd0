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

#include "haloflag/examples/stencil_variant.hpp"
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

class JacobiVariant : public haloflag::examples::StencilVariant<VariantKind> {
 public:
  // This rank's local field after the last step (float values widened to double, exactly).
  virtual haloflag::halo::HostField current() const = 0;
};

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
