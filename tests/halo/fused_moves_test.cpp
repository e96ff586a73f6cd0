// The fused kernels' chunked moves (fused_moves.hpp) against the shared mover (pack_unpack.hpp),
// which the other tests check cell by cell: for every element size of 1 to 16 bytes, dense,
// padded and interleaved fields at aligned and unaligned places, messages of several boxes and
// variables whose rows end inside a chunk, and a buffer place that is not 16-byte aligned, the
// buffer packed by any number of threads is the shared mover's byte for byte, and unpacking it
// writes exactly what the shared mover writes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/kernels/fused_moves.hpp"
#include "haloflag/kernels/pack_unpack.hpp"

namespace {

using haloflag::kernels::Box;
using haloflag::kernels::FieldSet;
using haloflag::kernels::MessageLayout;

constexpr std::int64_t kNx = 40, kNy = 6, kNz = 3;

struct FusedCase {
  std::string name;
  std::vector<int> element_bytes;  // per variable
  std::int64_t gap;                // bytes after each element (interleaving)
  std::int64_t row_pitch;          // cells per row (padding)
  std::int64_t base_offset;        // bytes from an aligned allocation to cell (0, 0, 0)
  std::int64_t buffer_offset;      // the message's place in the buffer
};

// One field per variable: its bytes (each a different pattern) and its FieldSet entry.
struct Fields {
  std::vector<std::vector<std::uint64_t>> storage;  // 8-byte aligned; base_offset moves off it
  FieldSet set{};
};

Fields make_fields(const FusedCase& c, bool patterned) {
  Fields fields;
  const int vars = static_cast<int>(c.element_bytes.size());
  for (int v = 0; v < vars; ++v) {
    const int bytes = c.element_bytes[static_cast<std::size_t>(v)];
    const std::int64_t stride = bytes + c.gap;
    const std::int64_t total = c.base_offset + stride * c.row_pitch * kNy * kNz + 32;
    fields.storage.emplace_back(static_cast<std::size_t>(total / 8 + 1), 0);
    auto* raw = reinterpret_cast<std::byte*>(fields.storage.back().data());
    for (std::int64_t i = 0; i < total; ++i) {
      raw[i] = patterned ? static_cast<std::byte>((i * 7 + v * 31 + 1) & 0xff) : std::byte{0xee};
    }
    auto& view = fields.set.variables[v];
    view.base = raw + c.base_offset;
    view.stride[0] = stride;
    view.stride[1] = stride * c.row_pitch;
    view.stride[2] = stride * c.row_pitch * kNy;
    view.element_bytes = bytes;
  }
  fields.set.variable_count = vars;
  fields.set.alignment = haloflag::kernels::alignment_of(fields.set);
  return fields;
}

std::vector<std::byte> bytes_of(const Fields& fields) {
  std::vector<std::byte> all;
  for (const auto& words : fields.storage) {
    const auto* raw = reinterpret_cast<const std::byte*>(words.data());
    all.insert(all.end(), raw, raw + words.size() * 8);
  }
  return all;
}

MessageLayout layout_of(const FusedCase& c) {
  MessageLayout layout{};
  layout.boxes[0] = Box{{1, 1, 0}, {37, 3, 2}};  // rows of 37: chunks cross their ends
  layout.boxes[1] = Box{{3, 5, 2}, {5, 1, 1}};
  layout.boxes[2] = Box{{0, 0, 1}, {1, 6, 2}};   // an x face: one element per row
  layout.box_count = 3;
  layout.buffer_offset = c.buffer_offset;
  layout.set_variables(static_cast<int>(c.element_bytes.size()), c.element_bytes.data());
  return layout;
}

TEST(FusedMoves, PackAndUnpackAsTheSharedMoverForEveryTypeAndLayout) {
  const std::vector<FusedCase> cases = {
      {"double dense aligned", {8}, 0, kNx, 0, 0},
      {"double dense off 16 bytes", {8}, 0, kNx, 8, 16},
      {"double padded, two variables", {8, 8}, 0, 48, 0, 32},
      {"float dense", {4}, 0, kNx, 4, 16},
      {"int16 padded", {2}, 0, 44, 2, 48},
      {"bytes dense", {1}, 0, kNx, 1, 0},
      {"bytes interleaved", {1, 1}, 3, kNx, 0, 16},
      {"sixteen bytes", {16}, 0, kNx, 0, 16},
      {"sixteen bytes at 8-byte alignment", {16}, 0, kNx, 8, 16},
      {"double interleaved in 24-byte cells", {8}, 16, kNx, 0, 16},
      {"float in 12-byte cells", {4}, 8, 41, 4, 0},
      {"twelve bytes (shared mover)", {12}, 0, kNx, 0, 16},
      {"mixed float double (shared mover)", {4, 8}, 0, kNx, 0, 16},
      {"double at an 8-byte buffer place (shared mover)", {8}, 0, kNx, 0, 8},
  };
  for (const FusedCase& c : cases) {
    SCOPED_TRACE(c.name);
    const MessageLayout layout = layout_of(c);
    const Fields source = make_fields(c, true);
    const auto size = static_cast<std::size_t>(layout.buffer_offset + layout.bytes());
    std::vector<std::uint64_t> reference_words(size / 8 + 2, 0);
    auto* reference = reinterpret_cast<std::byte*>(reference_words.data());
    haloflag::kernels::pack_message(layout, source.set, reference, 0, 1);
    for (const std::uint32_t threads : {1u, 3u, 64u, 4096u}) {
      std::vector<std::uint64_t> words(reference_words.size(), 0);
      auto* buffer = reinterpret_cast<std::byte*>(words.data());
      for (std::uint32_t t = 0; t < threads; ++t) {
        haloflag::kernels::fused_pack_message(layout, source.set, buffer + layout.buffer_offset,
                                              t, threads);
      }
      ASSERT_EQ(words, reference_words) << threads << " threads";

      Fields expected = make_fields(c, false);
      Fields got = make_fields(c, false);
      haloflag::kernels::unpack_message(layout, expected.set, reference, 0, 1);
      for (std::uint32_t t = 0; t < threads; ++t) {
        haloflag::kernels::fused_unpack_message(layout, got.set, reference + layout.buffer_offset,
                                                t, threads);
      }
      ASSERT_EQ(bytes_of(got), bytes_of(expected)) << threads << " threads";
    }
  }
}

// One thread per 16-byte chunk of the buffer: the fused grid's size.
TEST(FusedMoves, AThreadPerChunk) {
  EXPECT_EQ(haloflag::kernels::fused_threads_for(0), 0);
  EXPECT_EQ(haloflag::kernels::fused_threads_for(16), 1);
  EXPECT_EQ(haloflag::kernels::fused_threads_for(17), 2);
  EXPECT_EQ(haloflag::kernels::fused_threads_for(5'120'000), 320'000);
}

}  // namespace
