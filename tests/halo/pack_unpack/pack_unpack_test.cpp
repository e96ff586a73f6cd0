// Pack/unpack of one message by a thread group: buffer order, group-size independence, offsets.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "haloflag/kernels/box.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"

namespace {

using haloflag::kernels::Box;
using haloflag::kernels::FieldSet;
using haloflag::kernels::MessageLayout;

static_assert(std::is_trivially_copyable_v<Box>);
static_assert(std::is_trivially_copyable_v<MessageLayout>);
static_assert(std::is_trivially_copyable_v<FieldSet>);

constexpr std::int64_t kNx = 5, kNy = 4, kNz = 3;
constexpr std::int64_t kCells = kNx * kNy * kNz;

double original_value(int var, std::int64_t x, std::int64_t y, std::int64_t z) {
  return 1000.0 * (var + 1) + static_cast<double>((z * kNy + y) * kNx + x);
}

// Two variables of a 5x4x3 field and a message of two boxes placed 16 bytes into its buffer.
struct Fixture {
  std::vector<double> source[2];
  std::vector<double> target[2];
  MessageLayout layout{};

  Fixture() {
    for (int v = 0; v < 2; ++v) {
      source[v].resize(kCells);
      target[v].assign(kCells, -1.0);
      for (std::int64_t z = 0; z < kNz; ++z)
        for (std::int64_t y = 0; y < kNy; ++y)
          for (std::int64_t x = 0; x < kNx; ++x)
            source[v][static_cast<std::size_t>((z * kNy + y) * kNx + x)] =
                original_value(v, x, y, z);
    }
    layout.boxes[0] = Box{{1, 1, 1}, {2, 2, 1}};
    layout.boxes[1] = Box{{0, 3, 2}, {3, 1, 1}};
    layout.box_count = 2;
    layout.buffer_offset = 16;
    layout.set_variables(2, 8);
  }

  static FieldSet view(std::vector<double>* variables) {
    using haloflag::kernels::dense;
    return haloflag::kernels::make_field_set(
        {dense(variables[0].data(), kNx, kNy), dense(variables[1].data(), kNx, kNy)});
  }
};

// Buffer order: variable-major, then box, then z, y, x.
std::vector<double> expected_message(const MessageLayout& layout) {
  std::vector<double> values;
  for (int v = 0; v < layout.variable_count; ++v)
    for (int b = 0; b < layout.box_count; ++b) {
      const Box& box = layout.boxes[b];
      for (std::int64_t z = 0; z < box.extent[2]; ++z)
        for (std::int64_t y = 0; y < box.extent[1]; ++y)
          for (std::int64_t x = 0; x < box.extent[0]; ++x)
            values.push_back(original_value(v, box.begin[0] + x, box.begin[1] + y,
                                            box.begin[2] + z));
    }
  return values;
}

TEST(PackUnpack, LayoutCountsCellsElementsAndBytes) {
  const Fixture f;
  EXPECT_EQ(f.layout.cells_per_variable(), 4 + 3);
  EXPECT_EQ(f.layout.element_count(), 14);
  EXPECT_EQ(f.layout.bytes(), 14 * 8);
  EXPECT_EQ(f.layout.section_offset(1), 7 * 8);
  EXPECT_EQ(f.layout.uniform_bytes, 8);  // one access per element
  EXPECT_EQ(f.layout.alignment, 8);  // the second section starts 56 bytes in
}

TEST(PackUnpack, PacksVariableMajorThenBoxThenZYX) {
  Fixture f;
  std::vector<std::byte> buffer(static_cast<std::size_t>(f.layout.buffer_offset + f.layout.bytes()),
                                std::byte{0x5a});
  haloflag::kernels::pack_message(f.layout, Fixture::view(f.source), buffer.data(), 0, 1);

  const std::vector<double> expected = expected_message(f.layout);
  std::vector<double> packed(expected.size());
  std::memcpy(packed.data(), buffer.data() + f.layout.buffer_offset, f.layout.bytes());
  EXPECT_EQ(packed, expected);
  for (std::int64_t i = 0; i < f.layout.buffer_offset; ++i) {
    EXPECT_EQ(buffer[static_cast<std::size_t>(i)], std::byte{0x5a}) << "byte " << i
                                                                    << " before the offset";
  }
}

TEST(PackUnpack, EveryGroupSizeProducesTheSameBuffer) {
  Fixture f;
  const auto bytes = static_cast<std::size_t>(f.layout.buffer_offset + f.layout.bytes());
  std::vector<std::byte> reference(bytes, std::byte{0});
  haloflag::kernels::pack_message(f.layout, Fixture::view(f.source), reference.data(), 0, 1);
  for (const int group_size : {2, 3, 4, 7, 13, 14, 64}) {
    std::vector<std::byte> buffer(bytes, std::byte{0});
    for (int thread = 0; thread < group_size; ++thread) {
      haloflag::kernels::pack_message(f.layout, Fixture::view(f.source), buffer.data(), thread,
                                      group_size);
    }
    EXPECT_EQ(buffer, reference) << "group size " << group_size;
  }
}

// A group larger than the whole buffer (the stacked grid) gives each thread at most one element:
// the one whose place in the buffer equals the thread's index, across box, variable and the
// offset of the message, so all of a message's loads are in flight at once.
TEST(PackUnpack, ThreadsTakeElementsByTheirPlaceInTheWholeBuffer) {
  Fixture f;
  using Element = double;
  const std::int64_t first = f.layout.buffer_offset / static_cast<std::int64_t>(sizeof(Element));
  const std::int64_t elements = f.layout.element_count();
  const int group_size = 100;
  ASSERT_GT(group_size, first + elements);
  std::vector<Element> reference(static_cast<std::size_t>(first + elements), 0.0);
  haloflag::kernels::pack_message(f.layout, Fixture::view(f.source),
                                  reinterpret_cast<std::byte*>(reference.data()), 0, 1);
  for (int thread = 0; thread < group_size; ++thread) {
    std::vector<Element> buffer(reference.size(), 0.0);
    haloflag::kernels::pack_message(f.layout, Fixture::view(f.source),
                                    reinterpret_cast<std::byte*>(buffer.data()), thread,
                                    group_size);
    for (std::int64_t e = 0; e < static_cast<std::int64_t>(buffer.size()); ++e) {
      const auto i = static_cast<std::size_t>(e);
      EXPECT_EQ(buffer[i], e == thread ? reference[i] : 0.0)
          << "thread " << thread << ", buffer element " << e;
    }
  }
}

// A round spans variables and boxes: a 1024-thread block moves the 3-variable 50x50 face of the
// cube-200 configs (7500 elements, 60000 bytes) in one round per thread, so a GPU reading it from
// host memory waits one PCIe round trip, not one per variable.
TEST(PackUnpack, ARoundSpansVariablesAndBoxes) {
  MessageLayout face{};
  face.boxes[0] = Box{{1, 1, 0}, {50, 30, 1}};
  face.boxes[1] = Box{{1, 31, 0}, {50, 20, 1}};
  face.box_count = 2;
  face.buffer_offset = 8 * 1000;
  face.set_variables(3, 8);
  ASSERT_EQ(face.element_count(), 7500);
  namespace detail = haloflag::kernels::detail;
  using haloflag::kernels::kElementsInFlight;
  for (const int group_size : {1024, 7500 / kElementsInFlight + 1, 64}) {
    const std::int64_t expected_rounds =
        (7500 + std::int64_t{group_size} * kElementsInFlight - 1) /
        (std::int64_t{group_size} * kElementsInFlight);
    std::int64_t elements = 0;
    for (int thread = 0; thread < group_size; ++thread) {
      std::int64_t rounds = 0;
      // The rounds of detail::move_range, from this thread's first element.
      for (std::int64_t first = detail::first_element(face, thread, group_size); first < 7500;
           first += std::int64_t{group_size} * kElementsInFlight) {
        ++rounds;
        for (int k = 0; k < kElementsInFlight; ++k) elements += first + k * group_size < 7500;
      }
      EXPECT_LE(rounds, expected_rounds) << "group " << group_size << " thread " << thread;
    }
    EXPECT_EQ(elements, 7500) << "group " << group_size;
  }
  // Far into a buffer (past 2^32 elements) each thread of a group still starts at a different
  // element, and consecutive threads at consecutive ones.
  face.place_at((std::int64_t{1} << 36) + 8 * 1000);
  for (const int group_size : {1024, 937, 64}) {
    std::vector<int> starts(static_cast<std::size_t>(group_size), 0);
    for (int thread = 0; thread < group_size; ++thread) {
      const std::uint32_t first = detail::first_element(face, thread, group_size);
      ASSERT_LT(first, static_cast<std::uint32_t>(group_size));
      ++starts[first];
      if (thread > 0 && first != 0) {
        EXPECT_EQ(first, detail::first_element(face, thread - 1, group_size) + 1);
      }
    }
    EXPECT_EQ(std::count(starts.begin(), starts.end(), 1), group_size) << "group " << group_size;
  }
  // The field place of an element: variable-major, then box, then z, y, x.
  std::vector<double> storage[3];
  for (auto& variable : storage) variable.resize(52 * 52);
  using haloflag::kernels::dense;
  const FieldSet fields = haloflag::kernels::make_field_set(
      {dense(storage[0].data(), 52, 52), dense(storage[1].data(), 52, 52),
       dense(storage[2].data(), 52, 52)});
  const detail::FieldSide side{&face, &fields, 2500};
  const auto byte_of = [](std::vector<double>& variable, std::int64_t cell) {
    return reinterpret_cast<std::byte*>(variable.data() + cell);
  };
  EXPECT_EQ(side.place(2500 + 1499).address, byte_of(storage[1], 30 * 52 + 50));
  EXPECT_EQ(side.place(2 * 2500 + 1500).address, byte_of(storage[2], 31 * 52 + 1));
}

TEST(PackUnpack, UnpackWritesExactlyTheBoxCells) {
  for (const int group_size : {1, 4, 32}) {
    Fixture f;
    std::vector<std::byte> buffer(
        static_cast<std::size_t>(f.layout.buffer_offset + f.layout.bytes()));
    for (int thread = 0; thread < group_size; ++thread) {
      haloflag::kernels::pack_message(f.layout, Fixture::view(f.source), buffer.data(), thread,
                                      group_size);
    }
    for (int thread = 0; thread < group_size; ++thread) {
      haloflag::kernels::unpack_message(f.layout, Fixture::view(f.target), buffer.data(), thread,
                                        group_size);
    }
    for (int v = 0; v < 2; ++v)
      for (std::int64_t z = 0; z < kNz; ++z)
        for (std::int64_t y = 0; y < kNy; ++y)
          for (std::int64_t x = 0; x < kNx; ++x) {
            bool in_box = false;
            for (int b = 0; b < f.layout.box_count; ++b) {
              const Box& box = f.layout.boxes[b];
              in_box = in_box || (x >= box.begin[0] && x < box.begin[0] + box.extent[0] &&
                                  y >= box.begin[1] && y < box.begin[1] + box.extent[1] &&
                                  z >= box.begin[2] && z < box.begin[2] + box.extent[2]);
            }
            const double got = f.target[v][static_cast<std::size_t>((z * kNy + y) * kNx + x)];
            EXPECT_EQ(got, in_box ? original_value(v, x, y, z) : -1.0)
                << "group " << group_size << " var " << v << " cell " << x << "," << y << ","
                << z;
          }
  }
}

// Any trivially copyable element of 1 to 16 bytes, dense, padded or interleaved, mixed within one
// message: packing a field and unpacking the message into a second field of another layout
// moves every element's bytes, in buffer order, and touches nothing else.
struct Twelve {
  float x, y;
  std::int32_t id;
};
static_assert(sizeof(Twelve) == 12);

// A field of `cells` per axis (5 x 4 x 3) stored in one byte array with the given strides.
struct ByteField {
  std::vector<std::byte> bytes;
  haloflag::kernels::VariableView view;
};

ByteField byte_field(int element_bytes, std::int64_t stride_x, std::int64_t row_pitch,
                     std::int64_t offset, std::byte fill) {
  ByteField field;
  field.bytes.assign(static_cast<std::size_t>(offset + row_pitch * kNy * kNz * stride_x + 64), fill);
  field.view.base = field.bytes.data() + offset;
  field.view.stride[0] = stride_x;
  field.view.stride[1] = row_pitch * stride_x;
  field.view.stride[2] = row_pitch * kNy * stride_x;
  field.view.element_bytes = element_bytes;
  return field;
}

std::byte pattern(int var, std::int64_t x, std::int64_t y, std::int64_t z, int byte) {
  return static_cast<std::byte>((var * 71 + x * 13 + y * 29 + z * 37 + byte * 5 + 1) & 0xff);
}

void fill_pattern(ByteField& field, int var) {
  for (std::int64_t z = 0; z < kNz; ++z)
    for (std::int64_t y = 0; y < kNy; ++y)
      for (std::int64_t x = 0; x < kNx; ++x)
        for (int b = 0; b < field.view.element_bytes; ++b)
          field.view.base[z * field.view.stride[2] + y * field.view.stride[1] +
                          x * field.view.stride[0] + b] = pattern(var, x, y, z, b);
}

struct TypedCase {
  const char* name;
  std::vector<int> element_bytes;  // per variable
  std::int64_t stride_x_extra;     // bytes after each element (interleaving)
  std::int64_t row_pitch;          // cells per row (padding)
  std::int64_t buffer_offset;
};

TEST(PackUnpack, MovesTheBytesOfAnyElementTypeThroughAnyLayout) {
  const TypedCase cases[] = {
      {"float dense", {4}, 0, kNx, 16},
      {"int32 two vars dense", {4, 4}, 0, kNx, 8},
      {"int16 padded", {2}, 0, 8, 2},
      {"byte interleaved", {1, 1}, 3, kNx, 1},
      {"twelve-byte struct", {12}, 0, kNx, 24},
      {"double padded to 32", {8, 8}, 0, 32, 64},
      {"sixteen bytes", {16}, 0, 7, 32},
      {"mixed float double int16 twelve", {4, 8, 2, 12}, 0, 6, 8},
      {"mixed interleaved in 24-byte cells", {4, 8, 4}, 8, 6, 12},
  };
  for (const TypedCase& c : cases) {
    MessageLayout layout{};
    layout.boxes[0] = Box{{1, 1, 1}, {2, 2, 1}};
    layout.boxes[1] = Box{{0, 3, 2}, {3, 1, 1}};
    layout.box_count = 2;
    layout.buffer_offset = c.buffer_offset;
    const int vars = static_cast<int>(c.element_bytes.size());
    layout.set_variables(vars, c.element_bytes.data());
    std::int64_t cell_bytes = 0;
    for (int b : c.element_bytes) cell_bytes += b;
    EXPECT_EQ(layout.bytes(), 7 * cell_bytes) << c.name;

    std::vector<ByteField> source, target;
    FieldSet from{}, to{};
    for (int v = 0; v < vars; ++v) {
      const int bytes = c.element_bytes[static_cast<std::size_t>(v)];
      source.push_back(byte_field(bytes, bytes + c.stride_x_extra, c.row_pitch, 0, std::byte{0}));
      // The target has another layout: dense, at an odd offset when the element allows it.
      target.push_back(byte_field(bytes, bytes, kNx, bytes % 2 == 1 ? 3 : bytes, std::byte{0xee}));
      fill_pattern(source.back(), v);
    }
    for (int v = 0; v < vars; ++v) {
      from.variables[v] = source[static_cast<std::size_t>(v)].view;
      to.variables[v] = target[static_cast<std::size_t>(v)].view;
    }
    from.variable_count = to.variable_count = vars;
    from.alignment = haloflag::kernels::alignment_of(from);
    to.alignment = haloflag::kernels::alignment_of(to);

    // Pack with groups of several sizes; the buffer is the same.
    alignas(16) std::byte reference[1024] = {};
    ASSERT_LE(layout.buffer_offset + layout.bytes(), 1024);
    haloflag::kernels::pack_message(layout, from, reference, 0, 1);
    for (const int group : {3, 32}) {
      alignas(16) std::byte buffer[1024] = {};
      for (int t = 0; t < group; ++t) haloflag::kernels::pack_message(layout, from, buffer, t, group);
      EXPECT_EQ(std::memcmp(buffer, reference, sizeof buffer), 0) << c.name << " group " << group;
    }
    // The bytes on the wire are the elements' bytes, variable by variable, in z, y, x order.
    std::int64_t at = layout.buffer_offset;
    for (int v = 0; v < vars; ++v)
      for (int b = 0; b < layout.box_count; ++b) {
        const Box& box = layout.boxes[b];
        for (std::int64_t z = box.begin[2]; z < box.begin[2] + box.extent[2]; ++z)
          for (std::int64_t y = box.begin[1]; y < box.begin[1] + box.extent[1]; ++y)
            for (std::int64_t x = box.begin[0]; x < box.begin[0] + box.extent[0]; ++x)
              for (int k = 0; k < layout.element_bytes[v]; ++k, ++at)
                ASSERT_EQ(reference[at], pattern(v, x, y, z, k))
                    << c.name << " var " << v << " cell " << x << "," << y << "," << z;
      }
    for (int t = 0; t < 5; ++t) haloflag::kernels::unpack_message(layout, to, reference, t, 5);
    for (int v = 0; v < vars; ++v) {
      const auto& view = to.variables[v];
      for (std::int64_t z = 0; z < kNz; ++z)
        for (std::int64_t y = 0; y < kNy; ++y)
          for (std::int64_t x = 0; x < kNx; ++x) {
            const bool in_box = (z == 1 && y >= 1 && y < 3 && x >= 1 && x < 3) ||
                                (z == 2 && y == 3 && x < 3);
            for (int k = 0; k < view.element_bytes; ++k) {
              const std::byte got =
                  view.base[z * view.stride[2] + y * view.stride[1] + x * view.stride[0] + k];
              ASSERT_EQ(got, in_box ? pattern(v, x, y, z, k) : std::byte{0xee})
                  << c.name << " var " << v << " cell " << x << "," << y << "," << z;
            }
          }
    }
  }
}

// Elements of one power-of-two size move in one access each; mixed sizes are not uniform, and a
// section that a smaller variable leaves unaligned narrows the access.
TEST(PackUnpack, LayoutTellsWhenEveryElementMovesInOneAccess) {
  MessageLayout layout{};
  layout.boxes[0] = Box{{0, 0, 0}, {3, 1, 1}};
  layout.box_count = 1;
  layout.buffer_offset = 64;
  layout.set_variables(2, 4);
  EXPECT_EQ(layout.uniform_bytes, 4);
  const int mixed[] = {4, 8};
  layout.set_variables(2, mixed);
  EXPECT_EQ(layout.uniform_bytes, 0);
  EXPECT_EQ(layout.alignment, 4);  // the double section starts 12 bytes in
  layout.set_variables(1, 8);
  layout.place_at(4);
  EXPECT_EQ(layout.uniform_bytes, 0);  // a double at a 4-byte offset
  layout.place_at(8);
  EXPECT_EQ(layout.uniform_bytes, 8);
}

TEST(PackUnpack, BoxesCompareByValue) {
  EXPECT_EQ((Box{{1, 2, 3}, {4, 5, 6}}), (Box{{1, 2, 3}, {4, 5, 6}}));
  EXPECT_FALSE((Box{{1, 2, 3}, {4, 5, 6}}) == (Box{{1, 2, 3}, {4, 5, 7}}));
  EXPECT_EQ((Box{{0, 0, 0}, {4, 5, 6}}).cells(), 120);
}

}  // namespace
