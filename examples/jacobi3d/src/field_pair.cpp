#include "field_pair.hpp"

#include <cstddef>
#include <vector>

#include "initial_field.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

template <class Real>
haloflag::kernels::DeviceMemory field_memory(haloflag::notify::Backend backend,
                                             const hh::Index3& extent) {
  const auto cells = static_cast<std::size_t>(extent[0] * extent[1] * extent[2]);
  return haloflag::kernels::DeviceMemory(backend, cells * sizeof(Real));
}

}  // namespace

template <class Real>
FieldPair<Real>::FieldPair(const hh::Geometry& geometry, MPI_Comm comm,
                           haloflag::notify::Backend backend)
    : geometry_(geometry), rank_(comm_rank(comm)),
      extent_(geometry.subdomain(rank_).field_extent),
      buffers_{field_memory<Real>(backend, extent_), field_memory<Real>(backend, extent_)} {}

template <class Real>
haloflag::kernels::FieldSet FieldPair<Real>::view(int k) const {
  return haloflag::kernels::make_field_set({haloflag::kernels::dense(buffer(k), extent_[0],
                                                                     extent_[1])});
}

template <class Real>
SweepFields<Real> FieldPair<Real>::sweep_fields(int in) const {
  return SweepFields<Real>{buffer(in), buffer(in ^ 1), extent_[0], extent_[0] * extent_[1]};
}

template <class Real>
void FieldPair<Real>::reset() {
  const hh::HostField initial = initial_field(geometry_, rank_);
  const std::vector<Real> values = as_real<Real>(initial);
  for (auto& buffer : buffers_) buffer.copy_from_host(values.data(), values.size() * sizeof(Real));
  current_ = 0;
}

template <class Real>
hh::HostField FieldPair<Real>::download_current() const {
  std::vector<Real> values(static_cast<std::size_t>(extent_[0] * extent_[1] * extent_[2]));
  buffers_[current_].copy_to_host(values.data(), values.size() * sizeof(Real));
  return as_host_field(values, extent_);
}

template class FieldPair<float>;
template class FieldPair<double>;

}  // namespace jacobi3d
