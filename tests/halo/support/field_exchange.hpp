// Test support shared by the halo and comb_configs MPI tests: a field with ghosts whose cells
// hold values derived from coordinates, a real pack -> MPI_Irecv/MPI_Isend -> unpack exchange
// driven by a config's messages, and the expectations that say what every ghost cell must hold
// afterwards.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/reduced_peers.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/pack_unpack.hpp"

namespace haloflag::test {

using halo::Index3;

// Ghost cells start with this value; every derived value is >= 1.
inline constexpr double kUntouched = -1.0;

// A local field (ghosts included), one array per variable, x fastest.
class TestField {
 public:
  TestField(const Index3& extent, int vars)
      : extent_(extent),
        data_(static_cast<std::size_t>(vars),
              std::vector<double>(static_cast<std::size_t>(extent[0] * extent[1] * extent[2]),
                                  kUntouched)) {}

  const Index3& extent() const { return extent_; }
  int vars() const { return static_cast<int>(data_.size()); }

  double& at(int var, const Index3& local) {
    return data_[static_cast<std::size_t>(var)][index(local)];
  }

  kernels::FieldSet view() {
    kernels::FieldSet fields{};
    fields.variable_count = vars();
    for (int v = 0; v < vars(); ++v) {
      fields.variables[v] =
          kernels::dense(data_[static_cast<std::size_t>(v)].data(), extent_[0], extent_[1]);
    }
    fields.alignment = kernels::alignment_of(fields);
    return fields;
  }

  // Calls visit(var, local) for every cell of every variable.
  template <class Visit>
  void for_each_cell(Visit visit) {
    for (int v = 0; v < vars(); ++v) {
      for (std::int64_t z = 0; z < extent_[2]; ++z) {
        for (std::int64_t y = 0; y < extent_[1]; ++y) {
          for (std::int64_t x = 0; x < extent_[0]; ++x) visit(v, Index3{x, y, z});
        }
      }
    }
  }

 private:
  std::size_t index(const Index3& local) const {
    return static_cast<std::size_t>((local[2] * extent_[1] + local[1]) * extent_[0] + local[0]);
  }

  Index3 extent_;
  std::vector<std::vector<double>> data_;
};

// A value unique per (owner tag, variable, cell of `domain`), exact in a double.
inline double cell_value(const Index3& cell, const Index3& domain, int var, int owner_tag) {
  const std::int64_t id =
      (((std::int64_t{owner_tag} * 16 + var) * domain[2] + cell[2]) * domain[1] + cell[1]) *
          domain[0] +
      cell[0];
  return static_cast<double>(id + 1);
}

// Which side of the owned block a local index lies on, per axis: -1, 0 (owned range) or +1.
inline halo::Direction side_of(const Index3& local, const Index3& ghost, const Index3& owned) {
  int side[3] = {0, 0, 0};
  for (int axis = 0; axis < 3; ++axis) {
    if (local[axis] < ghost[axis]) side[axis] = -1;
    if (local[axis] >= ghost[axis] + owned[axis]) side[axis] = 1;
  }
  return halo::Direction{side[0], side[1], side[2]};
}

[[noreturn]] inline void abort_on_mpi_error(int rc, const std::string& what) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(rc, text, &length);
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "[rank %d] %s failed: %s\n", rank, what.c_str(), text);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

inline void check_mpi(int rc, const std::string& what) {
  if (rc != MPI_SUCCESS) abort_on_mpi_error(rc, what);
}

inline std::string describe(const char* kind, const halo::Message& m) {
  return std::string(kind) + " peer=" + std::to_string(m.peer) + " tag=" + std::to_string(m.tag) +
         " bytes=" + std::to_string(m.bytes);
}

// Packs every send (each message by a "team" of group_size members, emulated by a loop over the
// member index), exchanges with MPI_Irecv/MPI_Isend, and unpacks every receive. Any MPI error
// aborts the job with the message, peer and tag, so no rank waits forever on a failed one.
inline void exchange_messages(const halo::RankMessages& messages,
                              const halo::MessageLayouts& layouts, TestField& field,
                              MPI_Comm comm, int group_size) {
  std::vector<std::byte> send_buffer(static_cast<std::size_t>(layouts.send_buffer_bytes));
  std::vector<std::byte> recv_buffer(static_cast<std::size_t>(layouts.recv_buffer_bytes));
  const kernels::FieldSet fields = field.view();
  std::vector<MPI_Request> requests;

  for (std::size_t i = 0; i < messages.recvs.size(); ++i) {
    const halo::Message& m = messages.recvs[i];
    requests.emplace_back();
    check_mpi(MPI_Irecv(recv_buffer.data() + layouts.recvs[i].buffer_offset,
                        static_cast<int>(m.bytes), MPI_BYTE, m.peer, m.tag, comm,
                        &requests.back()),
              "MPI_Irecv " + describe("recv", m));
  }
  for (std::size_t i = 0; i < messages.sends.size(); ++i) {
    const halo::Message& m = messages.sends[i];
    for (int member = 0; member < group_size; ++member) {
      kernels::pack_message(layouts.sends[i], fields, send_buffer.data(), member, group_size);
    }
    requests.emplace_back();
    check_mpi(MPI_Isend(send_buffer.data() + layouts.sends[i].buffer_offset,
                        static_cast<int>(m.bytes), MPI_BYTE, m.peer, m.tag, comm,
                        &requests.back()),
              "MPI_Isend " + describe("send", m));
  }

  std::vector<MPI_Status> statuses(requests.size());
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), statuses.data());
  if (rc != MPI_SUCCESS) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const bool is_recv = i < messages.recvs.size();
      const halo::Message& m =
          is_recv ? messages.recvs[i] : messages.sends[i - messages.recvs.size()];
      if (rc == MPI_ERR_IN_STATUS && statuses[i].MPI_ERROR != MPI_SUCCESS) {
        abort_on_mpi_error(statuses[i].MPI_ERROR,
                           "MPI_Waitall on " + describe(is_recv ? "recv" : "send", m));
      }
    }
    abort_on_mpi_error(rc, "MPI_Waitall");
  }

  for (std::size_t i = 0; i < messages.recvs.size(); ++i) {
    const halo::Message& m = messages.recvs[i];
    int received = -1;
    check_mpi(MPI_Get_count(&statuses[i], MPI_BYTE, &received), "MPI_Get_count");
    if (received != m.bytes) {
      abort_on_mpi_error(MPI_ERR_COUNT, describe("recv", m) + " got " + std::to_string(received) +
                                            " bytes; the receive");
    }
    for (int member = 0; member < group_size; ++member) {
      kernels::unpack_message(layouts.recvs[i], fields, recv_buffer.data(), member, group_size);
    }
  }
}

// Compares every cell with expected(var, local); returns "" or a report of the first mismatches.
template <class Expected>
std::string check_field(TestField& field, const Expected& expected) {
  std::int64_t mismatches = 0;
  std::string report;
  field.for_each_cell([&](int var, const Index3& local) {
    const double want = expected(var, local);
    const double got = field.at(var, local);
    if (got == want) return;
    if (++mismatches <= 5) {
      report += "  var " + std::to_string(var) + " local (" + halo::format_triple(local) +
                "): got " + std::to_string(got) + ", expected " + std::to_string(want) + "\n";
    }
  });
  if (mismatches == 0) return {};
  return std::to_string(mismatches) + " cells differ, first ones:\n" + report;
}

// --- Expectations for a full decomposition: values derived from global coordinates. ---------

// What one rank needs to map local cells to global ones, computed once (the per-cell work in
// these checks must stay cheap: fields reach 25 million cells).
struct RankView {
  Index3 offset;       // global index of the first owned cell
  Index3 extent;       // owned cells
  Index3 ghost;
  Index3 global_size;
  std::array<bool, 3> periodic;
  std::array<bool, 27> has_peer;  // by raw direction (dx+1) + 3(dy+1) + 9(dz+1)

  RankView(const halo::Geometry& geometry, int rank) {
    const halo::Subdomain sub = geometry.subdomain(rank);
    offset = sub.offset;
    extent = sub.extent;
    ghost = geometry.spec().ghost;
    global_size = geometry.spec().global_size;
    periodic = geometry.spec().periodic;
    for (int raw = 0; raw < 27; ++raw) {
      const halo::Direction d{raw % 3 - 1, (raw / 3) % 3 - 1, raw / 9 - 1};
      has_peer[static_cast<std::size_t>(raw)] =
          d.nonzero_axes() == 0 || geometry.peer(rank, d).has_value();
    }
  }

  halo::Direction side(const Index3& local) const { return side_of(local, ghost, extent); }

  bool has_peer_at(halo::Direction d) const {
    return has_peer[static_cast<std::size_t>((d.dx + 1) + 3 * (d.dy + 1) + 9 * (d.dz + 1))];
  }

  // The global cell a local cell mirrors, wrapped on periodic axes (only asked where it exists).
  Index3 global(const Index3& local) const {
    Index3 g{};
    for (int axis = 0; axis < 3; ++axis) {
      const std::int64_t n = global_size[axis];
      g[axis] = ((offset[axis] + local[axis] - ghost[axis]) % n + n) % n;
    }
    return g;
  }
};

inline void fill_owned_from_geometry(TestField& field, const halo::Geometry& geometry, int rank) {
  const RankView view(geometry, rank);
  field.for_each_cell([&](int var, const Index3& local) {
    if (view.side(local).nonzero_axes() != 0) return;
    field.at(var, local) = cell_value(view.global(local), view.global_size, var, 0);
  });
}

// Owned cells keep their value; a ghost cell holds the value of the global cell it mirrors
// (periodic wrap) when its side has a neighbour in the stencil, and stays untouched otherwise.
inline auto geometry_expectation(const halo::Geometry& geometry, int rank) {
  return [view = RankView(geometry, rank)](int var, const Index3& local) {
    if (!view.has_peer_at(view.side(local))) return kUntouched;
    return cell_value(view.global(local), view.global_size, var, 0);
  };
}

// --- Expectations for a config reduced to 2, 4 or 8 ranks (make_reduced_config). ------------
// Each rank fills its owned cells with values of a periodic box of one subdomain, tagged with its
// rank; a ghost cell on stencil side d holds the owned cell at the wrapped position of the rank
// that sends that side, reduced_peer(rank, ranks, d).

inline Index3 owned_extent(const Index3& field_extent, const Index3& ghost) {
  return Index3{field_extent[0] - 2 * ghost[0], field_extent[1] - 2 * ghost[1],
                field_extent[2] - 2 * ghost[2]};
}

inline Index3 wrapped_owned_index(const Index3& local, const Index3& ghost, const Index3& owned) {
  Index3 q{};
  for (int axis = 0; axis < 3; ++axis) {
    q[axis] = ((local[axis] - ghost[axis]) % owned[axis] + owned[axis]) % owned[axis];
  }
  return q;
}

inline void fill_owned_reduced(TestField& field, const Index3& ghost, int rank) {
  const Index3 owned = owned_extent(field.extent(), ghost);
  field.for_each_cell([&](int var, const Index3& local) {
    if (side_of(local, ghost, owned).nonzero_axes() != 0) return;
    field.at(var, local) = cell_value(wrapped_owned_index(local, ghost, owned), owned, var, rank + 1);
  });
}

inline auto reduced_expectation(const Index3& field_extent, const Index3& ghost,
                                halo::Stencil stencil, int rank, int ranks) {
  const Index3 owned = owned_extent(field_extent, ghost);
  return [=](int var, const Index3& local) {
    const halo::Direction side = side_of(local, ghost, owned);
    if (side.nonzero_axes() != 0 && !halo::in_stencil(stencil, side)) return kUntouched;
    // The owned cells' side is no direction: its mask is 0, so the owner is this rank.
    const int owner = halo::reduced_peer(rank, ranks, side);
    return cell_value(wrapped_owned_index(local, ghost, owned), owned, var, owner + 1);
  };
}

}  // namespace haloflag::test
