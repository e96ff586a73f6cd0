#include "plane_pair.hpp"

#include <cstddef>

namespace jacobi2d {

namespace hk = haloflag::kernels;

template <class Real>
std::vector<Real> initial_rows(std::int64_t nx, std::int64_t ny, std::int64_t first_row,
                               std::int64_t count) {
  std::vector<Real> rows(static_cast<std::size_t>(nx * count), Real(0));
  for (std::int64_t r = 0; r < count; ++r) {
    const auto value = static_cast<Real>(boundary_value(first_row - 1 + r, ny));
    rows[static_cast<std::size_t>(r * nx)] = value;
    rows[static_cast<std::size_t>(r * nx + nx - 1)] = value;
  }
  return rows;
}

template <class Real>
PlanePair<Real>::PlanePair(const Problem& problem, int rank, haloflag::notify::Backend backend)
    : nx_(problem.nx), ny_(problem.ny), rank_(rank), rows_(problem.rows(rank)),
      first_row_(problem.first_row(rank)), plane_cells_(nx_ * (rows_ + 2)),
      fields_{hk::DeviceMemory(backend, static_cast<std::size_t>(3 * plane_cells_) * sizeof(Real)),
              hk::DeviceMemory(backend,
                               static_cast<std::size_t>(3 * plane_cells_) * sizeof(Real))} {}

template <class Real>
hk::FieldSet PlanePair<Real>::view(int k) const {
  return hk::make_field_set({hk::dense(static_cast<Real*>(fields_[k].data()), nx_, rows_ + 2)});
}

template <class Real>
Real* PlanePair<Real>::plane(int k) const {
  return static_cast<Real*>(fields_[k].data()) + plane_cells_;
}

template <class Real>
void PlanePair<Real>::reset() {
  const std::vector<Real> initial = initial_rows<Real>(nx_, ny_, first_row_, rows_ + 2);
  for (auto& field : fields_) {
    field.copy_from_host(initial.data(), initial.size() * sizeof(Real),
                         static_cast<std::size_t>(plane_cells_) * sizeof(Real));
  }
  current_ = 0;
}

template <class Real>
std::vector<Real> PlanePair<Real>::download_rows() const {
  std::vector<Real> rows(static_cast<std::size_t>(nx_ * rows_));
  fields_[current_].copy_to_host(rows.data(), rows.size() * sizeof(Real),
                                 static_cast<std::size_t>(plane_cells_ + nx_) * sizeof(Real));
  return rows;
}

template class PlanePair<float>;
template class PlanePair<double>;
template std::vector<float> initial_rows<float>(std::int64_t, std::int64_t, std::int64_t,
                                                std::int64_t);
template std::vector<double> initial_rows<double>(std::int64_t, std::int64_t, std::int64_t,
                                                  std::int64_t);

}  // namespace jacobi2d
