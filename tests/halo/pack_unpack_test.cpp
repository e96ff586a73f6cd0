// Pack/unpack of one message by a thread group: buffer order, group-size independence, offsets.
#include <gtest/gtest.h>

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
    layout.variable_count = 2;
    layout.stride_y = kNx;
    layout.stride_z = kNx * kNy;
    layout.buffer_offset = 16;
  }

  static FieldSet view(std::vector<double>* variables) {
    FieldSet fields{};
    fields.variable_count = 2;
    fields.variables[0] = variables[0].data();
    fields.variables[1] = variables[1].data();
    return fields;
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
  EXPECT_EQ(f.layout.field_index(2, 3, 1), 1 * 20 + 3 * 5 + 2);
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
  using haloflag::kernels::Element;
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
  face.variable_count = 3;
  face.stride_y = 52;
  face.stride_z = 52 * 52;
  face.buffer_offset = 8 * 1000;
  ASSERT_EQ(face.element_count(), 7500);
  namespace detail = haloflag::kernels::detail;
  using detail::kElementsInFlight;
  for (const int group_size : {1024, 7500 / kElementsInFlight + 1, 64}) {
    const std::int64_t expected_rounds =
        (7500 + std::int64_t{group_size} * kElementsInFlight - 1) /
        (std::int64_t{group_size} * kElementsInFlight);
    std::int64_t elements = 0;
    for (int thread = 0; thread < group_size; ++thread) {
      const detail::ThreadElements mine = detail::thread_elements(face, thread, group_size);
      std::int64_t rounds = 0;
      detail::for_each_round(mine, [&](std::int64_t first) {
        ++rounds;
        for (int k = 0; k < kElementsInFlight; ++k) elements += first + k * group_size < 7500;
      });
      EXPECT_LE(rounds, expected_rounds) << "group " << group_size << " thread " << thread;
    }
    EXPECT_EQ(elements, 7500) << "group " << group_size;
  }
  // The field place of an element: variable-major, then box, then z, y, x.
  const detail::FieldPlace last_of_box0 = detail::field_place(face, 2500, 2500 + 1499);
  EXPECT_EQ(last_of_box0.variable, 1);
  EXPECT_EQ(last_of_box0.offset, 30 * 52 + 50);
  const detail::FieldPlace first_of_box1 = detail::field_place(face, 2500, 2 * 2500 + 1500);
  EXPECT_EQ(first_of_box1.variable, 2);
  EXPECT_EQ(first_of_box1.offset, 31 * 52 + 1);
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

TEST(PackUnpack, BoxesCompareByValue) {
  EXPECT_EQ((Box{{1, 2, 3}, {4, 5, 6}}), (Box{{1, 2, 3}, {4, 5, 6}}));
  EXPECT_FALSE((Box{{1, 2, 3}, {4, 5, 6}}) == (Box{{1, 2, 3}, {4, 5, 7}}));
  EXPECT_EQ((Box{{0, 0, 0}, {4, 5, 6}}).cells(), 120);
}

}  // namespace
