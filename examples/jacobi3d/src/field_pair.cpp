#include "field_pair.hpp"

#include "initial_field.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

}  // namespace

FieldPair::FieldPair(const hh::Geometry& geometry, MPI_Comm comm,
                     haloflag::notify::Backend backend)
    : geometry_(geometry), rank_(comm_rank(comm)),
      extent_(geometry.subdomain(rank_).field_extent),
      buffers_{hh::DeviceFields(backend, extent_, 1), hh::DeviceFields(backend, extent_, 1)} {}

SweepFields FieldPair::sweep_fields(int in) const {
  return SweepFields{view(in).variables[0], view(in ^ 1).variables[0], extent_[0],
                     extent_[0] * extent_[1]};
}

void FieldPair::reset() {
  const hh::HostField initial = initial_field(geometry_, rank_);
  for (auto& buffer : buffers_) buffer.upload(initial);
  current_ = 0;
}

hh::HostField FieldPair::download_current() const {
  hh::HostField field(extent_, 1);
  buffers_[current_].download(field);
  return field;
}

}  // namespace jacobi3d
