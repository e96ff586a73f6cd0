/// @file
/// Where one message's data lives: in the field (boxes, for each variable, addressed through the
/// FieldSet's strides) and in the message buffer (a byte offset, then one section per variable of
/// cells x element bytes). Trivially copyable with a fixed box capacity, so an array of layouts
/// reaches the GPU in one copy and one block reads its own entry with no pointer fix-ups.
#pragma once

#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/box.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Halo messages built from geometry have one box; configs may merge a few. Eight is plenty.
inline constexpr int kMaxBoxesPerMessage = 8;

/// Where a message's data come from (or go to) in the fields and in the buffer.
struct MessageLayout {
  Box boxes[kMaxBoxesPerMessage];  ///< only the first box_count are used
  int box_count;  ///< boxes used
  int variable_count;              ///< every box is sent once per variable
  std::int64_t buffer_offset;      ///< bytes from the start of the buffer to this message's data
  std::uint8_t element_bytes[kMaxVariables];  ///< each variable's element size (set_variables)
  /// element_bytes of every variable when they are all one power of two that divides
  /// buffer_offset: each element then moves in one access. 0: they differ.
  std::int32_t uniform_bytes;
  /// The largest power of two (at most kMaxElementBytes) dividing buffer_offset, every element
  /// size and every variable's section offset: the widest access into the buffer.
  std::int32_t alignment;
  /// buffer_offset in elements of the first variable, modulo 2^32: where the message's first
  /// element falls in the whole buffer, which sets which thread of a group starts it
  /// (pack_unpack.hpp). Computed here, so that no thread divides 64-bit numbers for it.
  std::uint32_t buffer_element;

  /// Sets the variables' count and element sizes: call once the boxes and buffer_offset are set.
  HF_HD constexpr void set_variables(int count, const int* bytes) {
    variable_count = count;
    for (int v = 0; v < count; ++v) element_bytes[v] = static_cast<std::uint8_t>(bytes[v]);
    describe_access();
  }
  /// Moves the message to `offset` in its buffer.
  HF_HD constexpr void place_at(std::int64_t offset) {
    buffer_offset = offset;
    describe_access();
  }
  /// Sets uniform_bytes, alignment and buffer_element from the sizes and buffer_offset.
  HF_HD constexpr void describe_access() {
    std::uint64_t bits = static_cast<std::uint64_t>(buffer_offset);
    bool same = true;
    for (int v = 0; v < variable_count; ++v) {
      bits |= element_bytes[v] | static_cast<std::uint64_t>(section_offset(v));
      same = same && element_bytes[v] == element_bytes[0];
    }
    alignment = power_of_two_dividing(bits);
    const int first = variable_count > 0 ? element_bytes[0] : 0;
    uniform_bytes =
        same && first > 0 && (first & (first - 1)) == 0 && alignment >= first ? first : 0;
    buffer_element = static_cast<std::uint32_t>(buffer_offset / (first > 0 ? first : 1));
  }
  /// The same with every variable of `bytes` bytes.
  HF_HD constexpr void set_variables(int count, int bytes) {
    int sizes[kMaxVariables] = {};
    for (int v = 0; v < count && v < kMaxVariables; ++v) sizes[v] = bytes;
    set_variables(count, sizes);
  }

  /// Cells of all boxes, counted once (one variable).
  HF_HD constexpr std::int64_t cells_per_variable() const {
    std::int64_t cells = 0;
    for (int b = 0; b < box_count; ++b) cells += boxes[b].cells();
    return cells;
  }
  /// Elements of the message: cells of all boxes times variables.
  HF_HD constexpr std::int64_t element_count() const {
    return cells_per_variable() * variable_count;
  }
  /// Bytes of one cell over all variables.
  HF_HD constexpr std::int64_t cell_bytes() const {
    std::int64_t sum = 0;
    for (int v = 0; v < variable_count; ++v) sum += element_bytes[v];
    return sum;
  }
  /// Bytes of the message.
  HF_HD constexpr std::int64_t bytes() const { return cells_per_variable() * cell_bytes(); }
  /// Bytes from the message's start to variable v's section.
  HF_HD constexpr std::int64_t section_offset(int v) const {
    std::int64_t before = 0;
    for (int u = 0; u < v; ++u) before += element_bytes[u];
    return before * cells_per_variable();
  }
  /// The largest element.
  HF_HD constexpr int largest_element_bytes() const {
    int largest = 0;
    for (int v = 0; v < variable_count; ++v) largest = element_bytes[v] > largest ? element_bytes[v] : largest;
    return largest;
  }
};

static_assert(std::is_trivially_copyable_v<MessageLayout>);
static_assert(std::is_standard_layout_v<MessageLayout>);

}  // namespace haloflag::kernels
