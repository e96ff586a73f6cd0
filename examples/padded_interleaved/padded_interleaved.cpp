// A float field whose rows are padded to 32 cells, with an int32 flag interleaved in the same
// array of structures, exchanged over a periodic 50 x 36 x 20 domain. Every ghost cell is checked
// against the value and flag its neighbour owns, and the row padding must stay untouched.
//   mpiexec -n 2 ./padded_interleaved_example
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace hh = haloflag::halo;
namespace hk = haloflag::kernels;

struct Cell {
  float value;
  std::int32_t flag;
};

constexpr int kExchanges = 4;
constexpr Cell kPadding{-1.0f, -1};  // what the padding holds; no exchange may write there

// What the owner of global cell g holds in exchange `epoch`. It changes every epoch, so a ghost
// left over from the previous exchange is caught; the floats are exact (integers plus quarters).
Cell owned_cell(const hh::Index3& g, const hh::Index3& size, int epoch) {
  const std::int64_t linear = g[0] + size[0] * (g[1] + size[1] * g[2]);
  return {static_cast<float>(linear) + 0.25f * static_cast<float>(epoch),
          static_cast<std::int32_t>(linear * kExchanges + epoch)};
}

std::string text(const hh::Index3& c) { return "(" + hh::format_triple(c) + ")"; }
std::string text(const Cell& c) {
  return "{" + std::to_string(c.value) + ", " + std::to_string(c.flag) + "}";
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  hh::GeometrySpec spec;
  spec.global_size = {50, 36, 20};
  spec.ranks = ranks;
  spec.periodic = {true, true, true};  // so every ghost cell has a neighbour
  spec.vars = 2;                       // a value and a flag per cell
  spec.element_bytes = 4;
  spec.variable_bytes = {4, 4};        // float, int32
  const hh::Geometry geometry(spec);
  const hh::Subdomain sub = geometry.subdomain(rank);
  const hh::Index3 n = sub.field_extent;  // owned cells plus ghosts
  const hh::Index3 ghost = geometry.spec().ghost;

  // Rows padded to a multiple of 32 cells, as a code does for aligned rows; the padding cells
  // start as kPadding and the check below proves the exchange leaves them alone.
  const std::int64_t pitch = (n[0] + 31) / 32 * 32;
  std::vector<Cell> cells(static_cast<std::size_t>(pitch * n[1] * n[2]), kPadding);
  const auto at = [&](const hh::Index3& c) -> Cell& {
    return cells[static_cast<std::size_t>(c[0] + pitch * (c[1] + n[1] * c[2]))];
  };
  // Two variables in one array: each is a member of Cell, cells sizeof(Cell) bytes apart.
  const hk::FieldSet fields =
      hk::make_field_set({hk::interleaved(&cells[0].value, sizeof(Cell), pitch, n[1]),
                          hk::interleaved(&cells[0].flag, sizeof(Cell), pitch, n[1])});

  const auto is_owned = [&](const hh::Index3& c) {
    for (int a = 0; a < 3; ++a) {
      if (c[a] < ghost[a] || c[a] >= ghost[a] + sub.extent[a]) return false;
    }
    return true;
  };
  // Calls f(local cell) for every cell of the array, padding included.
  const auto for_each_cell = [&](auto&& f) {
    for (std::int64_t z = 0; z < n[2]; ++z)
      for (std::int64_t y = 0; y < n[1]; ++y)
        for (std::int64_t x = 0; x < pitch; ++x) f(hh::Index3{x, y, z});
  };

  hh::ExchangeOptions options;
  options.strategy = hh::Strategy::resident;  // pack and unpack stay resident across exchanges
  // The host backend reads the fields in host memory, so this runs without a GPU; on a GPU
  // backend `cells` would live in device memory.
  options.backend = haloflag::notify::Backend::host;

  std::string wrong;  // this rank's first wrong cell
  std::int64_t ghosts_checked = 0;
  {
    hh::Exchange exchange(geometry, fields, options);  // collective
    for (int epoch = 1; epoch <= kExchanges; ++epoch) {
      for_each_cell([&](const hh::Index3& c) {
        if (c[0] < n[0] && is_owned(c)) {
          at(c) = owned_cell(geometry.global_index(rank, c), spec.global_size, epoch);
        }
      });
      hh::ExchangeHandle handle = exchange.start();
      // A stencil code would update its interior cells here, while the halos travel.
      handle.wait();  // the ghost cells now hold the neighbours' cells

      // Every rank keeps exchanging after a wrong cell, so that none waits for a missing peer.
      for_each_cell([&](const hh::Index3& c) {
        if (!wrong.empty() || (c[0] < n[0] && is_owned(c))) return;
        Cell expected = kPadding;
        std::string where = "padding cell " + text(c);
        if (c[0] < n[0]) {  // a ghost: its neighbour owns the wrapped global cell
          const hh::Index3 global = *geometry.wrap(geometry.global_index(rank, c));
          expected = owned_cell(global, spec.global_size, epoch);
          where = "ghost cell " + text(c) + " (global " + text(global) + ")";
          ++ghosts_checked;
        }
        const Cell found = at(c);
        if (found.value != expected.value || found.flag != expected.flag) {
          wrong = "exchange " + std::to_string(epoch) + ": " + where + " holds " + text(found) +
                  ", expected " + text(expected);
        }
      });
    }
  }

  int ok = wrong.empty() ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!ok) {
    std::fprintf(stderr, "rank %d: %s\n", rank, wrong.c_str());
  } else {
    std::printf("rank %d: field %s in rows of %lld cells: %lld ghost cells and the padding right\n",
                rank, hh::format_triple(n, 'x').c_str(), static_cast<long long>(pitch),
                static_cast<long long>(ghosts_checked / kExchanges));
  }
  if (rank == 0 && all_ok) {
    std::printf("%d exchanges of padded, interleaved cells on %d ranks verified\n", kExchanges,
                ranks);
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
