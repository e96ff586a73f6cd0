#include "reference_check.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "reference_solution.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

std::vector<double> owned_cells(const hh::HostField& field, const hh::Subdomain& sub) {
  std::vector<double> cells;
  cells.reserve(static_cast<std::size_t>(sub.extent[0] * sub.extent[1] * sub.extent[2]));
  for (std::int64_t z = 0; z < sub.extent[2]; ++z) {
    for (std::int64_t y = 0; y < sub.extent[1]; ++y) {
      for (std::int64_t x = 0; x < sub.extent[0]; ++x) {
        cells.push_back(field.at(0, {x + kGhostWidth, y + kGhostWidth, z + kGhostWidth}));
      }
    }
  }
  return cells;
}

// A value of the run's precision (a float is widened to double, exactly), with the decimal
// digits that identify it and in hex.
std::string hex(double value, Precision precision) {
  char text[64];
  const int digits = precision == Precision::float32 ? 9 : 17;
  std::snprintf(text, sizeof text, "%.*g (%a)", digits, value, value);
  return text;
}

// Rank 0: compares every rank's owned cells (concatenated in rank order) with the reference.
CheckResult compare(const Problem& problem, const std::vector<double>& gathered, int iterations) {
  const hh::Geometry& geometry = problem.geometry;
  const hh::Index3 global = geometry.spec().global_size;
  const hh::HostField reference =
      reference_solution(problem.stencil, problem.precision, global, iterations);
  std::size_t next = 0;
  std::int64_t differing = 0;
  std::string first;
  for (int rank = 0; rank < geometry.ranks(); ++rank) {
    const hh::Subdomain sub = geometry.subdomain(rank);
    for (std::int64_t z = 0; z < sub.extent[2]; ++z) {
      for (std::int64_t y = 0; y < sub.extent[1]; ++y) {
        for (std::int64_t x = 0; x < sub.extent[0]; ++x) {
          const double got = gathered[next++];
          const hh::Index3 cell{sub.offset[0] + x, sub.offset[1] + y, sub.offset[2] + z};
          const double expected = reference.at(
              0, {cell[0] + kGhostWidth, cell[1] + kGhostWidth, cell[2] + kGhostWidth});
          if (std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(expected)) continue;
          if (differing++ == 0) {
            first = "global cell (" + hh::format_triple(cell) + "), owned by rank " +
                    std::to_string(rank) + " at local (" +
                    hh::format_triple(hh::Index3{x + kGhostWidth, y + kGhostWidth, z + kGhostWidth}) +
                    "): expected " + hex(expected, problem.precision) + ", got " +
                    hex(got, problem.precision);
          }
        }
      }
    }
  }
  const std::int64_t cells = global[0] * global[1] * global[2];
  if (differing == 0) {
    return {true, "all " + std::to_string(cells) + " cells identical to the single-rank reference"};
  }
  return {false, std::to_string(differing) + " of " + std::to_string(cells) +
                     " cells differ from the single-rank reference after " +
                     std::to_string(iterations) + " iterations; first: " + first};
}

}  // namespace

CheckResult check_against_reference(MPI_Comm comm, const Problem& problem,
                                    const hh::HostField& field, int iterations) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::vector<double> mine = owned_cells(field, problem.geometry.subdomain(rank));

  std::vector<int> counts(static_cast<std::size_t>(ranks));
  std::vector<int> offsets(static_cast<std::size_t>(ranks));
  int total = 0;
  for (int r = 0; r < ranks; ++r) {
    const hh::Index3 extent = problem.geometry.subdomain(r).extent;
    counts[static_cast<std::size_t>(r)] = static_cast<int>(extent[0] * extent[1] * extent[2]);
    offsets[static_cast<std::size_t>(r)] = total;
    total += counts[static_cast<std::size_t>(r)];
  }
  std::vector<double> gathered(rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, gathered.data(),
              counts.data(), offsets.data(), MPI_DOUBLE, 0, comm);

  CheckResult result;
  if (rank == 0) result = compare(problem, gathered, iterations);
  int identical = result.identical ? 1 : 0;
  MPI_Bcast(&identical, 1, MPI_INT, 0, comm);
  int length = static_cast<int>(result.message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  result.message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(result.message.data(), length, MPI_CHAR, 0, comm);
  result.identical = identical != 0;
  return result;
}

}  // namespace jacobi3d
