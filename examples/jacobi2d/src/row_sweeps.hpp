// Row updates ordered on two lanes, a GPU stream each (the boundary lane at the highest
// priority) or a HostQueue each on the host backend: the conventional loop updates its boundary
// rows on one while the interior updates on the other, the stream loop and the reference use
// one. Norm sums are added into a device accumulator (one double, device address).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/work_stream.hpp"
#include "norm_slots.hpp"
#include "row_sweep.hpp"

namespace jacobi2d {

enum class Lane { boundary, interior };

template <class Real>
class RowSweeps {
 public:
  virtual ~RowSweeps() = default;
  // Updates `rows` on `lane`; with `norm` set, adds their sum of squared changes to *norm.
  virtual void enqueue(Lane lane, const PlaneStep<Real>& step, const RowSet& rows,
                       double* norm) = 0;
  // Publishes *norm as check `check` to `slots` on `lane`, then zeroes *norm.
  virtual void enqueue_publish(Lane lane, double* norm, const NormSlots& slots,
                               std::uint64_t check) = 0;
  // Copies `bytes` bytes of device memory on `lane`.
  virtual void enqueue_copy(Lane lane, void* to, const void* from, std::size_t bytes) = 0;
  virtual haloflag::notify::WorkStream stream(Lane lane) = 0;
  // Blocks until everything enqueued on `lane` has run; throws when it failed.
  virtual void synchronize(Lane lane) = 0;
  // The accumulator's value, read after the lanes that add to it are synchronized; zeroes it.
  virtual double take(double* norm) = 0;
  virtual std::string describe() const = 0;
};

// `gpu_threads`: threads per block on a GPU. Defined for float and double.
template <class Real>
std::unique_ptr<RowSweeps<Real>> make_row_sweeps(haloflag::notify::Backend backend,
                                                 int gpu_threads);
template <class Real>
std::unique_ptr<RowSweeps<Real>> make_host_row_sweeps();

}  // namespace jacobi2d
