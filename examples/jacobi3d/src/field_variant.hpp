// What every variant of this example holds: the problem, this rank's two field buffers and the
// regions of its owned cells that the sweeps update; and the JacobiVariant members that need
// nothing else.
#pragma once

#include <mpi.h>

#include "field_pair.hpp"
#include "jacobi_variant.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

template <class Real>
class FieldVariant : public JacobiVariant {
 public:
  void reset() override { fields_.reset(); }
  haloflag::halo::HostField current() const override { return fields_.download_current(); }

 protected:
  FieldVariant(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), fields_(problem.geometry, comm, settings.backend),
        regions_(sweep_regions(problem.geometry.subdomain(fields_.rank()).extent, kGhostWidth)) {}

  Problem problem_;
  FieldPair<Real> fields_;
  SweepRegions regions_;
};

}  // namespace jacobi3d
