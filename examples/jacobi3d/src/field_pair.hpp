// This rank's two field buffers on its backend (ghosts included, one variable): an iteration
// reads the current one and writes the other, which then becomes current. Every variant keeps
// its field in one, so that all start from the same field and report it the same way.
#pragma once

#include <mpi.h>

#include <array>

#include "cell_update.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/backend.hpp"

namespace jacobi3d {

class FieldPair {
 public:
  // This rank's buffers; `comm` numbers the ranks as `geometry` does.
  FieldPair(const haloflag::halo::Geometry& geometry, MPI_Comm comm,
            haloflag::notify::Backend backend);

  int rank() const { return rank_; }
  // Cells per axis of either buffer, ghosts included.
  const haloflag::halo::Index3& extent() const { return extent_; }
  // Buffer k (0 or 1), in device addresses: what an Exchange or a kernel takes.
  haloflag::kernels::FieldSet view(int k) const { return buffers_[k].view(); }
  // One step that reads buffer `in` and writes the other.
  SweepFields sweep_fields(int in) const;

  // Puts the initial field into both buffers; buffer 0 becomes current.
  void reset();
  int current() const { return current_; }
  // Records `steps` more steps, each of which wrote the buffer that was not current.
  void advance(int steps) { current_ ^= steps & 1; }
  // The current field, copied to the host.
  haloflag::halo::HostField download_current() const;

 private:
  haloflag::halo::Geometry geometry_;
  int rank_;
  haloflag::halo::Index3 extent_;
  std::array<haloflag::halo::DeviceFields, 2> buffers_;
  int current_ = 0;
};

}  // namespace jacobi3d
