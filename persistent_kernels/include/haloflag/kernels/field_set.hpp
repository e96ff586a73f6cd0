/// @file
/// The variables of one field as the kernels address them: for each variable, where its cell
/// (0, 0, 0) lies (ghosts included), the bytes between neighbouring cells along each axis, and the
/// size of one element. Strides in bytes describe dense arrays, arrays padded to a row pitch,
/// sub-blocks of larger arrays and variables interleaved in one array of structures alike.
/// Fixed capacity and plain data, so it can be passed to a kernel by value.
///
///   std::vector<float> t(pitch * ny * nz);                          // padded rows
///   struct Cell { float u; std::int32_t flag; };  std::vector<Cell> cells(n);
///   FieldSet fields = make_field_set({padded(t.data(), pitch, ny),
///                                     interleaved(&cells[0].flag, sizeof(Cell), nx, ny)});
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

inline constexpr int kMaxVariables = 16;  ///< Most variables a FieldSet holds.
/// Elements are moved as raw bytes; 16 bytes is the widest a GPU moves in one access.
inline constexpr int kMaxElementBytes = 16;
/// How many FieldSets one exchange registers (its slots 0 .. kMaxFieldSets - 1).
inline constexpr int kMaxFieldSets = 8;

/// One field variable as kernels address it: base, strides and element size.
struct VariableView {
  std::byte* base = nullptr;     ///< the element of cell (0, 0, 0)
  std::int64_t stride[3] = {};   ///< bytes between (x, y, z) and the next cell along x, y, z
  std::int32_t element_bytes = 0;  ///< bytes of one element
};

/// The variables an exchange packs from and unpacks into.
struct FieldSet {
  VariableView variables[kMaxVariables];  ///< only the first variable_count are used
  int variable_count = 0;  ///< number of variables used
  /// The largest power of two, at most kMaxElementBytes, dividing every base and stride: the
  /// widest access the kernels may use (make_field_set sets it; 0 or 1 moves byte by byte).
  int alignment = 0;
};

static_assert(std::is_trivially_copyable_v<VariableView>);
static_assert(std::is_trivially_copyable_v<FieldSet>);

/// The largest power of two, at most kMaxElementBytes, that divides `value` (0: the cap).
HF_HD constexpr int power_of_two_dividing(std::uint64_t value) {
  int power = 1;
  while (power < kMaxElementBytes && value % (2u * static_cast<unsigned>(power)) == 0) power *= 2;
  return power;
}

/// A variable of elements T with strides counted in elements of `array_element_bytes` bytes.
template <class T>
VariableView variable_view(T* first, std::int64_t array_element_bytes, std::int64_t step_x,
                           std::int64_t step_y, std::int64_t step_z) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kMaxElementBytes,
                "a variable's element is a trivially copyable type of at most 16 bytes");
  VariableView view;
  view.base = reinterpret_cast<std::byte*>(const_cast<std::remove_const_t<T>*>(first));
  view.stride[0] = step_x * array_element_bytes;
  view.stride[1] = step_y * array_element_bytes;
  view.stride[2] = step_z * array_element_bytes;
  view.element_bytes = static_cast<std::int32_t>(sizeof(T));
  return view;
}

/// Dense: x fastest, rows of nx elements, planes of ny rows (ghosts included).
template <class T>
VariableView dense(T* data, std::int64_t nx, std::int64_t ny) {
  return variable_view(data, sizeof(T), 1, nx, nx * ny);
}

/// Rows padded to `row_pitch` elements (>= the field's x extent), planes of `rows` rows.
template <class T>
VariableView padded(T* data, std::int64_t row_pitch, std::int64_t rows) {
  return variable_view(data, sizeof(T), 1, row_pitch, row_pitch * rows);
}

/// One member of an array of structures: `member` points at the member in cell (0, 0, 0),
/// cells are `cell_bytes` apart, rows hold `row_pitch` cells and planes `rows` rows.
template <class T>
VariableView interleaved(T* member, std::int64_t cell_bytes, std::int64_t row_pitch,
                         std::int64_t rows) {
  return variable_view(member, cell_bytes, 1, row_pitch, row_pitch * rows);
}

/// The largest access every variable of `fields` allows (FieldSet::alignment).
inline int alignment_of(const FieldSet& fields) {
  std::uint64_t bits = 0;
  for (int v = 0; v < fields.variable_count; ++v) {
    const VariableView& view = fields.variables[v];
    bits |= reinterpret_cast<std::uintptr_t>(view.base);
    for (const std::int64_t s : view.stride) bits |= static_cast<std::uint64_t>(s);
  }
  return power_of_two_dividing(bits);
}

/// A FieldSet of `views`, with its access width set.
inline FieldSet make_field_set(std::initializer_list<VariableView> views) {
  FieldSet fields;
  for (const VariableView& view : views) {
    if (fields.variable_count < kMaxVariables) fields.variables[fields.variable_count] = view;
    ++fields.variable_count;  // more than kMaxVariables: the Exchange refuses it, naming both
  }
  if (fields.variable_count > kMaxVariables) return fields;
  fields.alignment = alignment_of(fields);
  return fields;
}

}  // namespace haloflag::kernels
