#include "haloflag/halo/exchange_verifier.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/reduced_peers.hpp"
#include "haloflag/halo/stencil.hpp"

namespace haloflag::halo {

namespace {

// A value unique per (tag, variable, value-domain cell) and epoch (mod 1024), exact in a double:
// the cell part stays below 2^43 for domains up to 2^31 cells with 16 variables and 16 tags (a
// reduced config has a tag per rank, at most 8), and the epoch part adds multiples of 2^43, so
// the sum stays below 2^53.
double pattern_value(const Index3& cell, const Index3& domain, int var, int tag,
                     std::uint64_t epoch) {
  const std::int64_t id =
      (((std::int64_t{tag} * 16 + var) * domain[2] + cell[2]) * domain[1] + cell[1]) * domain[0] +
      cell[0];
  constexpr double kEpochStride = 8796093022208.0;  // 2^43
  return static_cast<double>(id + 1) + static_cast<double>(epoch % 1024) * kEpochStride;
}

int raw_direction(int sx, int sy, int sz) { return (sx + 1) + 3 * (sy + 1) + 9 * (sz + 1); }

// Side of each local index along one axis: -1 (low ghosts), 0 (owned), +1 (high ghosts).
std::vector<int> sides_along(std::int64_t field, std::int64_t ghost, std::int64_t owned) {
  std::vector<int> sides(static_cast<std::size_t>(field), 0);
  for (std::int64_t i = 0; i < field; ++i) {
    sides[static_cast<std::size_t>(i)] = i < ghost ? -1 : (i >= ghost + owned ? 1 : 0);
  }
  return sides;
}

}  // namespace

ExchangeVerifier::ExchangeVerifier(const Geometry& geometry, int rank) {
  const Subdomain sub = geometry.subdomain(rank);
  field_extent_ = sub.field_extent;
  ghost_ = geometry.spec().ghost;
  owned_ = sub.extent;
  value_domain_ = geometry.spec().global_size;
  window_offset_ = sub.offset;
  vars_ = geometry.spec().vars;
  for (int raw = 0; raw < 27; ++raw) {
    const Direction d{raw % 3 - 1, (raw / 3) % 3 - 1, raw / 9 - 1};
    has_neighbour_[raw] = d.nonzero_axes() == 0 || geometry.peer(rank, d).has_value();
  }
}

std::optional<ExchangeVerifier> ExchangeVerifier::for_config(const ExchangeConfig& config,
                                                             int rank) {
  if (!config.geometry || !config.data) return std::nullopt;
  const GeometrySpec spec = geometry_spec_of(config);
  if (!config.geometry->reduced_from_rank) return ExchangeVerifier(Geometry(spec), rank);

  // A reduction: on each stencil side d the neighbour is reduced_peer(rank, ranks, d), in a
  // periodic box the size of one subdomain; each rank's values carry its own tag.
  const int ranks = config.geometry->reduced_ranks;
  const RankMessages& messages = config.rank_messages.at(static_cast<std::size_t>(rank));
  if (!messages.field_extent || config.ranks != ranks || !is_reduced_rank_count(ranks)) {
    return std::nullopt;
  }
  ExchangeVerifier verifier;
  verifier.field_extent_ = *messages.field_extent;
  verifier.ghost_ = spec.ghost;
  for (int axis = 0; axis < 3; ++axis) {
    verifier.owned_[axis] = verifier.field_extent_[axis] - 2 * spec.ghost[axis];
  }
  verifier.value_domain_ = verifier.owned_;
  verifier.vars_ = spec.vars;
  verifier.own_tag_ = rank + 1;
  for (int raw = 0; raw < 27; ++raw) {
    const Direction d{raw % 3 - 1, (raw / 3) % 3 - 1, raw / 9 - 1};
    verifier.has_neighbour_[raw] = d.nonzero_axes() == 0 || in_stencil(spec.stencil, d);
    verifier.ghost_tag_[raw] = reduced_peer(rank, ranks, d) + 1;
  }
  return verifier;
}

bool ExchangeVerifier::in_epoch_shell(const Index3& local) const {
  for (int axis = 0; axis < 3; ++axis) {
    const std::int64_t thickness = 2 * ghost_[axis];
    if (local[axis] < thickness || local[axis] >= field_extent_[axis] - thickness) return true;
  }
  return false;
}

double ExchangeVerifier::owned_value(int var, const Index3& local, std::uint64_t epoch) const {
  Index3 cell{};
  for (int axis = 0; axis < 3; ++axis) cell[axis] = window_offset_[axis] + local[axis] - ghost_[axis];
  return pattern_value(cell, value_domain_, var, own_tag_, in_epoch_shell(local) ? epoch : 0);
}

double ExchangeVerifier::expected_value(int var, const Index3& local, int raw_side,
                                        std::uint64_t epoch) const {
  Index3 cell{};
  for (int axis = 0; axis < 3; ++axis) {
    const std::int64_t n = value_domain_[axis];
    cell[axis] = ((window_offset_[axis] + local[axis] - ghost_[axis]) % n + n) % n;
  }
  return pattern_value(cell, value_domain_, var, ghost_tag_[raw_side], epoch);
}

// Calls visit(local) for every cell of `extent`, or with shell_only for the cells within
// `thickness` of the surface, row by row so a large field's interior costs nothing.
template <class Visit>
void for_each_cell(const Index3& extent, const Index3& thickness, bool shell_only, Visit visit) {
  for (std::int64_t z = 0; z < extent[2]; ++z) {
    const bool z_shell = z < thickness[2] || z >= extent[2] - thickness[2];
    for (std::int64_t y = 0; y < extent[1]; ++y) {
      const bool y_shell = y < thickness[1] || y >= extent[1] - thickness[1];
      if (!shell_only || z_shell || y_shell) {
        for (std::int64_t x = 0; x < extent[0]; ++x) visit(Index3{x, y, z});
        continue;
      }
      const std::int64_t low_end = std::min(thickness[0], extent[0]);
      for (std::int64_t x = 0; x < low_end; ++x) visit(Index3{x, y, z});
      for (std::int64_t x = std::max(low_end, extent[0] - thickness[0]); x < extent[0]; ++x) {
        visit(Index3{x, y, z});
      }
    }
  }
}

template <class Store>
void ExchangeVerifier::write_with(std::uint64_t epoch, bool shell_only, Store store) const {
  const auto sx = sides_along(field_extent_[0], ghost_[0], owned_[0]);
  const auto sy = sides_along(field_extent_[1], ghost_[1], owned_[1]);
  const auto sz = sides_along(field_extent_[2], ghost_[2], owned_[2]);
  const Index3 thickness{2 * ghost_[0], 2 * ghost_[1], 2 * ghost_[2]};
  for (int var = 0; var < vars_; ++var) {
    for_each_cell(field_extent_, thickness, shell_only, [&](const Index3& local) {
      const bool owned = sx[static_cast<std::size_t>(local[0])] == 0 &&
                         sy[static_cast<std::size_t>(local[1])] == 0 &&
                         sz[static_cast<std::size_t>(local[2])] == 0;
      store(var, local, owned ? owned_value(var, local, epoch) : kUntouched);
    });
  }
}

template <class Found>
std::string ExchangeVerifier::compare_with(std::uint64_t epoch, bool shell_only,
                                           Found found) const {
  const auto sx = sides_along(field_extent_[0], ghost_[0], owned_[0]);
  const auto sy = sides_along(field_extent_[1], ghost_[1], owned_[1]);
  const auto sz = sides_along(field_extent_[2], ghost_[2], owned_[2]);
  const Index3 thickness{2 * ghost_[0], 2 * ghost_[1], 2 * ghost_[2]};
  std::int64_t wrong = 0;
  std::string first;
  for (int var = 0; var < vars_; ++var) {
    for_each_cell(field_extent_, thickness, shell_only, [&](const Index3& local) {
      const int raw = raw_direction(sx[static_cast<std::size_t>(local[0])],
                                    sy[static_cast<std::size_t>(local[1])],
                                    sz[static_cast<std::size_t>(local[2])]);
      double expected = kUntouched;
      if (raw == 13) {
        expected = owned_value(var, local, epoch);
      } else if (has_neighbour_[raw]) {
        expected = expected_value(var, local, raw, epoch);
      }
      const std::string differs = found(var, local, expected);  // "" when it matches
      if (differs.empty()) return;
      if (++wrong <= 5) {
        first += "\n  var " + std::to_string(var) + " cell (" + format_triple(local) + "): " +
                 differs;
      }
    });
  }
  if (wrong == 0) return {};
  return std::to_string(wrong) + " cells wrong after exchange " + std::to_string(epoch) +
         ", first ones:" + first;
}

void ExchangeVerifier::write(HostField& field, std::uint64_t epoch, bool shell_only) const {
  write_with(epoch, shell_only,
             [&](int var, const Index3& local, double value) { field.at(var, local) = value; });
}

void ExchangeVerifier::fill(HostField& field, std::uint64_t epoch) const { write(field, epoch, false); }

void ExchangeVerifier::refresh(HostField& field, std::uint64_t epoch) const {
  write(field, epoch, true);
}

std::string ExchangeVerifier::check(const HostField& field, std::uint64_t epoch) const {
  return compare(field, epoch, true);
}

std::string ExchangeVerifier::check_all(const HostField& field, std::uint64_t epoch) const {
  return compare(field, epoch, false);
}

std::string ExchangeVerifier::compare(const HostField& field, std::uint64_t epoch,
                                      bool shell_only) const {
  if (field.extent() != field_extent_ || field.vars() < vars_) {
    return "field " + format_triple(field.extent()) + " with " + std::to_string(field.vars()) +
           " variables, expected " + format_triple(field_extent_) + " with " +
           std::to_string(vars_);
  }
  return compare_with(epoch, shell_only, [&](int var, const Index3& local, double expected) {
    const double found = field.at(var, local);
    if (found == expected) return std::string();
    return "found " + std::to_string(found) + ", expected " + std::to_string(expected);
  });
}

void ExchangeVerifier::encode_element(double value, int var, std::byte* element,
                                      int element_bytes) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int k = 0; k < element_bytes; k += 8) {
    // splitmix64 of the value, the variable and the word: every byte differs from its
    // neighbours' and from a stale epoch's.
    std::uint64_t h =
        bits + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(var * 3 + k / 8 + 1);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    for (int b = k; b < element_bytes && b < k + 8; ++b) {
      element[b] = static_cast<std::byte>((h >> (8 * (b - k))) & 0xff);
    }
  }
}

namespace {

std::byte* element_of(const kernels::FieldSet& field, int var, const Index3& local) {
  const kernels::VariableView& view = field.variables[var];
  return view.base + local[2] * view.stride[2] + local[1] * view.stride[1] +
         local[0] * view.stride[0];
}

}  // namespace

void ExchangeVerifier::fill_encoded(const kernels::FieldSet& field, std::uint64_t epoch,
                                    bool shell_only) const {
  write_with(epoch, shell_only, [&](int var, const Index3& local, double value) {
    encode_element(value, var, element_of(field, var, local), field.variables[var].element_bytes);
  });
}

std::string ExchangeVerifier::check_encoded(const kernels::FieldSet& field,
                                            std::uint64_t epoch) const {
  return compare_with(epoch, true, [&](int var, const Index3& local, double expected) {
    std::byte want[kernels::kMaxElementBytes] = {};
    const int bytes = field.variables[var].element_bytes;
    encode_element(expected, var, want, bytes);
    if (std::memcmp(want, element_of(field, var, local), static_cast<std::size_t>(bytes)) == 0) {
      return std::string();
    }
    return "its " + std::to_string(bytes) + " bytes are not those of the value " +
           std::to_string(expected);
  });
}

}  // namespace haloflag::halo
