// What every variant of this example holds: its settings, this rank's two fields, the device
// accumulators of its norms, the host's follower of the norms the kernels publish, and the last
// run's norms; and the Variant members that need nothing else. A run with or without the
// exchange is one iterate().
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"
#include "norm_follower.hpp"
#include "plane_pair.hpp"
#include "variant.hpp"

namespace jacobi2d {

template <class Real>
class RowVariant : public Variant {
 public:
  void reset() override { fields_.reset(); }
  double run(int iterations) override { return start_run(iterations, true); }
  double run_updates_only(int iterations) override { return start_run(iterations, false); }
  const std::vector<double>& norms() const override { return norms_; }
  std::vector<double> current_rows() const override { return widened(fields_.download_rows()); }

 protected:
  // `accumulator_bytes`: device memory for the rank's sums of squared changes.
  RowVariant(const Problem& problem, MPI_Comm comm, const RunSettings& settings,
             std::size_t accumulator_bytes)
      : settings_(settings), fields_(problem, rank_of(comm), settings.backend),
        accumulators_(settings.backend, accumulator_bytes),
        follower_(settings.backend, norm_checks(settings.max_iterations, settings.nccheck), comm,
                  settings.timeout) {}

  // Runs `iterations` steps from the current field, with the exchange or (`exchange` false) the
  // updates and norms alone; returns this rank's seconds. norms() is empty and no check is
  // published when it is called.
  virtual double iterate(int iterations, bool exchange) = 0;

  // Waits for every check of a run of `iterations` in turn, summing each over the ranks into
  // norms(); `progress` is called while it waits.
  void follow_norms(int iterations, const std::function<void()>& progress) {
    for (int k = 0; k < norm_checks(iterations, settings_.nccheck); ++k) {
      norms_.push_back(follower_.reduce(k, k * settings_.nccheck, progress));
    }
  }

  RunSettings settings_;
  PlanePair<Real> fields_;
  haloflag::kernels::DeviceMemory accumulators_;
  NormFollower follower_;
  std::vector<double> norms_;

 private:
  double start_run(int iterations, bool exchange) {
    norms_.clear();
    follower_.reset();
    return iterate(iterations, exchange);
  }
};

}  // namespace jacobi2d
