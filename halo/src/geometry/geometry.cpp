#include "haloflag/halo/geometry.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/rank_grid.hpp"
#include "haloflag/halo/stencil.hpp"

namespace haloflag::halo {

namespace {

std::string axis_name(int axis) { return std::string(1, kAxisNames[axis]); }

// Problems that need no rank grid: non-positive counts and sizes.
std::vector<std::string> size_problems(const GeometrySpec& spec) {
  std::vector<std::string> problems;
  if (spec.ranks <= 0) {
    problems.push_back("the number of ranks must be positive, got " + std::to_string(spec.ranks));
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (spec.global_size[axis] <= 0) {
      problems.push_back("the global size along " + axis_name(axis) + " must be positive, got " +
                         std::to_string(spec.global_size[axis]));
    }
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (spec.ghost[axis] <= 0) {
      problems.push_back("the ghost width along " + axis_name(axis) + " must be positive, got " +
                         std::to_string(spec.ghost[axis]));
    }
  }
  if (spec.vars <= 0) {
    problems.push_back("the number of variables must be positive, got " +
                       std::to_string(spec.vars));
  }
  if (spec.element_bytes <= 0) {
    problems.push_back("the element size must be a positive number of bytes, got " +
                       std::to_string(spec.element_bytes));
  }
  if (!spec.variable_bytes.empty() &&
      spec.variable_bytes.size() != static_cast<std::size_t>(spec.vars)) {
    problems.push_back("the element sizes per variable give " +
                       std::to_string(spec.variable_bytes.size()) + " sizes for " +
                       std::to_string(spec.vars) + " variables");
  }
  for (std::size_t v = 0; v < spec.variable_bytes.size(); ++v) {
    if (spec.variable_bytes[v] <= 0) {
      problems.push_back("variable " + std::to_string(v) +
                         "'s element size must be a positive number of bytes, got " +
                         std::to_string(spec.variable_bytes[v]));
    }
  }
  return problems;
}

std::vector<std::string> given_grid_problems(const GeometrySpec& spec, const RankGrid& grid) {
  std::vector<std::string> problems;
  std::int64_t product = 1;
  for (int axis = 0; axis < 3; ++axis) {
    if (grid[axis] <= 0) {
      problems.push_back("the rank grid " + format_triple(grid, 'x') + " has " +
                         std::to_string(grid[axis]) + " ranks along " + axis_name(axis) +
                         "; every axis needs at least one");
    }
    product *= grid[axis];
  }
  if (!problems.empty()) return problems;
  if (product != spec.ranks) {
    problems.push_back("the rank grid " + format_triple(grid, 'x') + " holds " +
                       std::to_string(product) + " ranks, but the number of ranks is " +
                       std::to_string(spec.ranks));
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (grid[axis] > spec.global_size[axis]) {
      problems.push_back("the rank grid " + format_triple(grid, 'x') + " splits " +
                         axis_name(axis) + " (" + std::to_string(spec.global_size[axis]) +
                         " cells) into " + std::to_string(grid[axis]) +
                         " parts; some ranks would own no cells");
    }
  }
  return problems;
}

[[noreturn]] void throw_problems(const std::vector<std::string>& problems) {
  std::string message = "invalid geometry: ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) message += "; ";
    message += problems[i];
  }
  throw GeometryError(message);
}

// Owned cells along one axis for coordinate c when n cells are split p ways: the first n % p
// coordinates get one cell more.
std::int64_t split_extent(std::int64_t n, int p, int c) { return n / p + (c < n % p ? 1 : 0); }
std::int64_t split_offset(std::int64_t n, int p, int c) {
  return c * (n / p) + std::min<std::int64_t>(c, n % p);
}

}  // namespace

Geometry::Geometry(GeometrySpec spec) : spec_(std::move(spec)) {
  std::vector<std::string> problems = size_problems(spec_);
  if (!problems.empty()) throw_problems(problems);

  if (spec_.divide) {
    problems = given_grid_problems(spec_, *spec_.divide);
    if (!problems.empty()) throw_problems(problems);
    grid_ = *spec_.divide;
  } else {
    grid_ = auto_divide(spec_.ranks, spec_.global_size);
    spec_.divide = grid_;
  }

  // The smallest subdomain along an axis has n / p cells; the last coordinate always has it.
  for (int axis = 0; axis < 3; ++axis) {
    const std::int64_t smallest = spec_.global_size[axis] / grid_[axis];
    if (spec_.ghost[axis] > smallest) {
      RankGrid coords{0, 0, 0};
      coords[axis] = grid_[axis] - 1;
      problems.push_back("the ghost width " + std::to_string(spec_.ghost[axis]) + " along " +
                         axis_name(axis) + " is wider than the subdomain of rank " +
                         std::to_string(rank_at(coords)) + " (" + std::to_string(smallest) +
                         " cells along " + axis_name(axis) + ": " +
                         std::to_string(spec_.global_size[axis]) + " cells split " +
                         std::to_string(grid_[axis]) + " ways)");
    }
  }
  if (!problems.empty()) throw_problems(problems);
}

void Geometry::check_rank(int rank) const {
  if (rank < 0 || rank >= spec_.ranks) {
    throw GeometryError("rank " + std::to_string(rank) + " is out of range [0, " +
                        std::to_string(spec_.ranks) + ") of the rank grid " +
                        format_triple(grid_, 'x'));
  }
}

RankGrid Geometry::coords_of(int rank) const {
  check_rank(rank);
  return RankGrid{rank % grid_[0], (rank / grid_[0]) % grid_[1], rank / (grid_[0] * grid_[1])};
}

int Geometry::rank_at(const RankGrid& coords) const {
  for (int axis = 0; axis < 3; ++axis) {
    if (coords[axis] < 0 || coords[axis] >= grid_[axis]) {
      throw GeometryError("rank coordinates " + format_triple(coords) +
                          " lie outside the rank grid " + format_triple(grid_, 'x'));
    }
  }
  return coords[0] + grid_[0] * (coords[1] + grid_[1] * coords[2]);
}

Subdomain Geometry::subdomain(int rank) const {
  const RankGrid coords = coords_of(rank);
  Subdomain sub{};
  for (int axis = 0; axis < 3; ++axis) {
    const std::int64_t n = spec_.global_size[axis];
    sub.offset[axis] = split_offset(n, grid_[axis], coords[axis]);
    sub.extent[axis] = split_extent(n, grid_[axis], coords[axis]);
    sub.field_extent[axis] = sub.extent[axis] + 2 * spec_.ghost[axis];
  }
  return sub;
}

std::optional<int> Geometry::peer(int rank, Direction d) const {
  RankGrid coords = coords_of(rank);
  if (!in_stencil(spec_.stencil, d) || d.nonzero_axes() == 0) return std::nullopt;
  for (int axis = 0; axis < 3; ++axis) {
    int c = coords[axis] + d[axis];
    if (c < 0 || c >= grid_[axis]) {
      if (!spec_.periodic[axis]) return std::nullopt;
      c = (c + grid_[axis]) % grid_[axis];
    }
    coords[axis] = c;
  }
  return rank_at(coords);
}

std::vector<Neighbour> Geometry::neighbours(int rank) const {
  const Subdomain sub = subdomain(rank);
  const std::int64_t bytes_per_cell = spec_.cell_bytes();
  std::vector<Neighbour> result;
  for (const Direction d : stencil_directions(spec_.stencil)) {
    const std::optional<int> peer_rank = peer(rank, d);
    if (!peer_rank) continue;
    Neighbour n{};
    n.direction = d;
    n.peer = *peer_rank;
    n.send_tag = direction_index(d);
    n.recv_tag = direction_index(opposite(d));
    for (int axis = 0; axis < 3; ++axis) {
      const std::int64_t g = spec_.ghost[axis];
      const std::int64_t e = sub.extent[axis];
      switch (d[axis]) {
        case -1:  // low side: first g owned cells; ghosts before them
          n.send_box.begin[axis] = g;
          n.recv_box.begin[axis] = 0;
          n.send_box.extent[axis] = n.recv_box.extent[axis] = g;
          break;
        case 0:  // the whole owned range
          n.send_box.begin[axis] = n.recv_box.begin[axis] = g;
          n.send_box.extent[axis] = n.recv_box.extent[axis] = e;
          break;
        default:  // high side: last g owned cells; ghosts after them
          n.send_box.begin[axis] = e;
          n.recv_box.begin[axis] = g + e;
          n.send_box.extent[axis] = n.recv_box.extent[axis] = g;
          break;
      }
    }
    n.bytes = n.send_box.cells() * bytes_per_cell;
    result.push_back(n);
  }
  return result;
}

Index3 Geometry::global_index(int rank, const Index3& local) const {
  const Subdomain sub = subdomain(rank);
  Index3 global{};
  for (int axis = 0; axis < 3; ++axis) {
    global[axis] = sub.offset[axis] + local[axis] - spec_.ghost[axis];
  }
  return global;
}

std::optional<Index3> Geometry::wrap(const Index3& global) const {
  Index3 wrapped = global;
  for (int axis = 0; axis < 3; ++axis) {
    const std::int64_t n = spec_.global_size[axis];
    if (wrapped[axis] >= 0 && wrapped[axis] < n) continue;
    if (!spec_.periodic[axis]) return std::nullopt;
    wrapped[axis] = ((wrapped[axis] % n) + n) % n;
  }
  return wrapped;
}

}  // namespace haloflag::halo
