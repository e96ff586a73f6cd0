// This rank's two field buffers on its backend (ghosts included, one variable of Real: float or
// double): an iteration reads the current one and writes the other, which then becomes current.
// Every variant keeps its field in one, so that all start from the same field and report it the
// same way.
#pragma once

#include <mpi.h>

#include <array>

#include "cell_update.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/backend.hpp"

namespace jacobi3d {

// Defined for float and double.
template <class Real>
class FieldPair {
 public:
  // This rank's buffers; `comm` numbers the ranks as `geometry` does.
  FieldPair(const haloflag::halo::Geometry& geometry, MPI_Comm comm,
            haloflag::notify::Backend backend);

  int rank() const { return rank_; }
  // Cells per axis of either buffer, ghosts included.
  const haloflag::halo::Index3& extent() const { return extent_; }
  // Buffer k (0 or 1), in device addresses: its first element (ghosts included), and the
  // FieldSet an Exchange or a kernel takes.
  Real* buffer(int k) const { return static_cast<Real*>(buffers_[k].data()); }
  haloflag::kernels::FieldSet view(int k) const;
  // One step that reads buffer `in` and writes the other.
  SweepFields<Real> sweep_fields(int in) const;
  // Both steps: element k reads buffer k (a run of steps alternates between them).
  std::array<SweepFields<Real>, 2> steps() const { return {sweep_fields(0), sweep_fields(1)}; }

  // Puts the initial field, rounded to Real, into both buffers; buffer 0 becomes current.
  void reset();
  int current() const { return current_; }
  // Records `steps` more steps, each of which wrote the buffer that was not current.
  void advance(int steps) { current_ ^= steps & 1; }
  // The current field, copied to the host (float values widened to double, exactly).
  haloflag::halo::HostField download_current() const;

 private:
  haloflag::halo::Geometry geometry_;
  int rank_;
  haloflag::halo::Index3 extent_;
  std::array<haloflag::kernels::DeviceMemory, 2> buffers_;
  int current_ = 0;
};

}  // namespace jacobi3d
