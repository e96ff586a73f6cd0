// A field of any element types and layout for the exchange tests: the variables' bytes in the
// backend's memory (one array per variable, or all interleaved in one array of cells, rows
// padded to a pitch), a host mirror of the same bytes, and the FieldSet that addresses them.
// Each element's bytes are derived from the verifier's value for its cell
// (ExchangeVerifier::fill_encoded), so an exchange of any type is checked against the data the
// neighbour owns, byte for byte.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "geometry_cases.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/backend.hpp"

namespace haloflag::test {

struct TypedLayout {
  std::string name;
  std::vector<int> element_bytes;  // per variable
  bool interleaved = false;        // one array of cells holding every variable
  int pitch_multiple = 1;          // rows padded to a multiple of this many cells (1: dense)
};

class TypedField {
 public:
  TypedField(notify::Backend backend, const halo::Index3& extent, const TypedLayout& layout)
      : extent_(extent), layout_(layout) {
    const std::int64_t pitch =
        (extent[0] + layout.pitch_multiple - 1) / layout.pitch_multiple * layout.pitch_multiple;
    const std::int64_t cells = pitch * extent[1] * extent[2];
    std::vector<std::int64_t> member_offset;
    std::int64_t cell_bytes = 0;
    for (const int bytes : layout.element_bytes) {
      const std::int64_t align = std::min<std::int64_t>(bytes & -bytes, 8);  // natural alignment
      cell_bytes = (cell_bytes + align - 1) / align * align;
      member_offset.push_back(cell_bytes);
      cell_bytes += bytes;
    }
    cell_bytes = (cell_bytes + 7) / 8 * 8;
    const int arrays = layout.interleaved ? 1 : static_cast<int>(layout.element_bytes.size());
    for (int a = 0; a < arrays; ++a) {
      const std::int64_t bytes =
          cells * (layout.interleaved ? cell_bytes : layout.element_bytes[static_cast<std::size_t>(a)]);
      memory_.emplace_back(backend, static_cast<std::size_t>(bytes));
      host_.emplace_back(static_cast<std::size_t>(bytes));
    }
    fields_.variable_count = static_cast<int>(layout.element_bytes.size());
    for (int v = 0; v < fields_.variable_count; ++v) {
      const auto i = static_cast<std::size_t>(v);
      const std::int64_t step = layout.interleaved ? cell_bytes : layout.element_bytes[i];
      kernels::VariableView view;
      view.base = static_cast<std::byte*>(memory_[layout.interleaved ? 0 : i].data()) +
                  (layout.interleaved ? member_offset[i] : 0);
      view.stride[0] = step;
      view.stride[1] = step * pitch;
      view.stride[2] = step * pitch * extent[1];
      view.element_bytes = layout.element_bytes[i];
      fields_.variables[v] = view;
      host_fields_.variables[v] = view;
      host_fields_.variables[v].base = host_[layout.interleaved ? 0 : i].data() +
                                       (layout.interleaved ? member_offset[i] : 0);
    }
    host_fields_.variable_count = fields_.variable_count;
    fields_.alignment = kernels::alignment_of(fields_);
  }

  const kernels::FieldSet& view() const { return fields_; }
  int vars() const { return fields_.variable_count; }

  // Writes every cell as the verifier has it before exchange `epoch`, and uploads.
  void prepare(const halo::ExchangeVerifier& verifier, std::uint64_t epoch) {
    verifier.fill_encoded(host_fields_, epoch, false);
    for (std::size_t a = 0; a < memory_.size(); ++a) {
      memory_[a].copy_from_host(host_[a].data(), host_[a].size());
    }
  }

  // Downloads and checks every cell an exchange reads or writes: "" when all hold the
  // neighbour's (or their own) bytes after exchange `epoch`.
  std::string check(const halo::ExchangeVerifier& verifier, std::uint64_t epoch) {
    for (std::size_t a = 0; a < memory_.size(); ++a) {
      memory_[a].copy_to_host(host_[a].data(), host_[a].size());
    }
    const std::string report = verifier.check_encoded(host_fields_, epoch);
    return report.empty() ? report : layout_.name + ": " + report;
  }

 private:
  halo::Index3 extent_;
  TypedLayout layout_;
  std::vector<kernels::DeviceMemory> memory_;
  std::vector<std::vector<std::byte>> host_;
  kernels::FieldSet host_fields_{};  // the same layout over the host mirror
  kernels::FieldSet fields_{};
};

// The layouts every strategy is tested with: single precision, integers, a 12-byte structure,
// rows padded to 32 cells, variables interleaved in one array, and types mixed in one Exchange.
inline std::vector<TypedLayout> typed_layouts() {
  return {
      {"float", {4}, false, 1},
      {"int32 x2 padded to 32", {4, 4}, false, 32},
      {"12-byte struct", {12}, false, 1},
      {"float + int32 interleaved, padded to 32", {4, 4}, true, 32},
      {"mixed float, double, int16", {4, 8, 2}, false, 1},
      {"mixed double + 12-byte interleaved", {8, 12}, true, 1},
  };
}

// Two geometries for `layout`'s variables: 26 neighbours, periodic, ghost width 1; and ghost
// width 2 with a non-periodic axis (ghost cells without a neighbour must stay as they were).
inline std::vector<halo::Geometry> typed_geometries(const TypedLayout& layout) {
  std::vector<halo::Geometry> geometries;
  for (const auto& c : geometry_cases()) {
    if (c.name != "cube_auto_periodic" && c.name != "nondivisible_mixed_ghost2") continue;
    halo::GeometrySpec spec = make_geometry(c).spec();
    spec.vars = static_cast<int>(layout.element_bytes.size());
    spec.element_bytes = layout.element_bytes.front();
    spec.variable_bytes = layout.element_bytes;
    geometries.emplace_back(spec);
  }
  return geometries;
}

// Element sizes 1 to 16 bytes, dense, padded and interleaved: the node transport's tests, whose
// paths (placement by shape, lines) depend on the sizes and rows.
inline std::vector<TypedLayout> node_layouts() {
  return {
      {"uint8", {1}, false, 1},
      {"int16 padded to 32", {2}, false, 32},
      {"double", {8}, false, 1},
      {"float + int32 interleaved, padded to 32", {4, 4}, true, 32},
      {"12-byte struct", {12}, false, 1},
      {"16-byte struct", {16}, false, 1},
      {"mixed double + 12-byte interleaved", {8, 12}, true, 1},
  };
}

// `exchanges` exchanges, the field prepared anew for each; the first wrong ghost byte's report
// with its exchange, or "" when every ghost byte of every exchange is right.
inline std::string run_typed_verified(halo::Exchange& exchange, TypedField& field,
                                      const halo::ExchangeVerifier& verifier, int exchanges) {
  for (int i = 0; i < exchanges; ++i) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    field.prepare(verifier, epoch);
    exchange.start().wait();
    const std::string report = field.check(verifier, epoch);
    if (!report.empty()) return "exchange " + std::to_string(epoch) + ": " + report;
  }
  return "";
}

}  // namespace haloflag::test
