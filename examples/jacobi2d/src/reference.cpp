#include "reference.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>

#include "haloflag/examples/format.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "plane_pair.hpp"
#include "row_sweeps.hpp"
#include "variant.hpp"

namespace jacobi2d {

namespace {

namespace hk = haloflag::kernels;

constexpr double kNormTolerance = 1e-6;

template <class Real>
Reference reference_of(const Problem& problem, int rank, const RunSettings& settings,
                       int iterations) {
  const std::int64_t nx = problem.nx;
  const std::int64_t ny = problem.ny;
  const std::vector<Real> initial = initial_rows<Real>(nx, ny, 1, ny);
  const std::size_t bytes = initial.size() * sizeof(Real);
  std::array<hk::DeviceMemory, 2> grids{hk::DeviceMemory(settings.backend, bytes),
                                        hk::DeviceMemory(settings.backend, bytes)};
  for (auto& grid : grids) grid.copy_from_host(initial.data(), bytes);
  hk::DeviceMemory norm(settings.backend, sizeof(double));
  const auto sweeps = make_row_sweeps<Real>(settings.backend, settings.gpu_threads);
  const std::size_t row_bytes = static_cast<std::size_t>(nx) * sizeof(Real);

  Reference reference;
  int in = 0;
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    Real* from = static_cast<Real*>(grids[in].data());
    Real* to = static_cast<Real*>(grids[in ^ 1].data());
    const bool check = i % settings.nccheck == 0;
    double* sum = check ? static_cast<double*>(norm.data()) : nullptr;
    sweeps->enqueue(Lane::interior, PlaneStep<Real>{from, to, nx}, RowSet{1, ny - 2, 1}, sum);
    sweeps->enqueue_copy(Lane::interior, to, to + (ny - 2) * nx, row_bytes);
    sweeps->enqueue_copy(Lane::interior, to + (ny - 1) * nx, to + nx, row_bytes);
    if (check) {
      sweeps->synchronize(Lane::interior);
      reference.norms.push_back(std::sqrt(sweeps->take(sum)));
    }
    in ^= 1;
  }
  sweeps->synchronize(Lane::interior);
  reference.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  std::vector<Real> rows(static_cast<std::size_t>(nx * problem.rows(rank)));
  grids[in].copy_to_host(rows.data(), rows.size() * sizeof(Real),
                         static_cast<std::size_t>(problem.first_row(rank) * nx) * sizeof(Real));
  reference.rows = widened(rows);
  return reference;
}

using haloflag::examples::format;

}  // namespace

Reference run_reference(const Problem& problem, int rank, const RunSettings& settings,
                        int iterations) {
  return with_real(problem.precision, [&]<class Real>() {
    return reference_of<Real>(problem, rank, settings, iterations);
  });
}

CheckResult check_against_reference(MPI_Comm comm, const Problem& problem,
                                    const std::vector<double>& rows,
                                    const std::vector<double>& norms, const Reference& reference) {
  const int rank = rank_of(comm);
  std::int64_t differ = 0;
  std::int64_t first = std::numeric_limits<std::int64_t>::max();  // global row * nx + column
  const std::int64_t base = problem.first_row(rank) * problem.nx;
  for (std::size_t c = 0; c < rows.size(); ++c) {
    if (rows[c] != reference.rows[c] || rows.size() != reference.rows.size()) {
      if (differ == 0) first = base + static_cast<std::int64_t>(c);
      ++differ;
    }
  }
  double worst = norms.size() == reference.norms.size() ? 0.0
                                                        : std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < std::min(norms.size(), reference.norms.size()); ++k) {
    const double scale = std::max(std::abs(reference.norms[k]), 1e-300);
    worst = std::max(worst, std::abs(norms[k] - reference.norms[k]) / scale);
  }
  std::int64_t cells = static_cast<std::int64_t>(rows.size());
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &cells, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);

  CheckResult result;
  const std::string norm_text =
      std::to_string(reference.norms.size()) + " norms within " + format("%.0e", kNormTolerance) +
      " of the reference's (largest relative difference " + format("%.2e", worst) + ")";
  result.identical = differ == 0 && worst <= kNormTolerance;
  if (differ != 0) {
    result.message = std::to_string(differ) + " of " + std::to_string(cells) +
                     " cells differ from the single-device reference, the first at row " +
                     std::to_string(first / problem.nx) + " column " +
                     std::to_string(first % problem.nx);
  } else if (worst > kNormTolerance) {
    result.message = "all " + std::to_string(cells) + " cells identical, but not " + norm_text;
  } else {
    result.message = "all " + std::to_string(cells) + " cells identical, " + norm_text;
  }
  return result;
}

}  // namespace jacobi2d
