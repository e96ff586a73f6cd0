// The fused kernels' chunked mover (fused_chunks.hpp) against the shared mover (pack_unpack.hpp),
// which the other tests check cell by cell. For element sizes of 1 to 16 bytes, dense, padded and
// interleaved fields, rows that end inside a chunk, x faces (one element per row), several
// variables and boxes, messages 16-byte aligned or not, and grids of 1 to 4096 threads: the
// packed buffer is the shared mover's byte for byte and nothing past the message is written, and
// an unpack writes exactly the cells the shared mover writes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/kernels/fused_chunks.hpp"
#include "haloflag/kernels/pack_unpack.hpp"

namespace {

namespace hk = haloflag::kernels;

constexpr std::int64_t kRows = 7;    // y extent of the field
constexpr std::int64_t kPlanes = 3;  // z extent of the field
constexpr std::int64_t kGuard = 64;  // bytes around the message that must stay untouched

struct Case {
  std::string name;
  std::vector<int> element_bytes;  // per variable
  std::int64_t gap = 0;            // bytes after each element: interleaved variables
  std::int64_t pitch = 41;         // elements per row, padding included
  std::int64_t base_offset = 0;    // bytes from a 16-byte aligned allocation to cell (0, 0, 0)
  std::int64_t message_offset = 0; // bytes from a 16-byte aligned buffer to the message
  std::vector<hk::Box> boxes;
};

// The boxes of the usual cases: a run of rows of 37 elements (chunks cross their ends), a short
// row, and an x face of one element per row.
std::vector<hk::Box> mixed_boxes() {
  return {hk::Box{{1, 1, 0}, {37, 3, 2}}, hk::Box{{3, 6, 2}, {5, 1, 1}},
          hk::Box{{0, 0, 1}, {1, 7, 2}}};
}

// Each variable in its own 16-byte aligned storage, filled with a pattern (or a constant).
struct Fields {
  std::vector<std::vector<std::uint64_t>> storage;
  hk::FieldSet set{};
};

Fields make_fields(const Case& c, bool patterned) {
  Fields fields;
  const auto vars = static_cast<int>(c.element_bytes.size());
  for (int v = 0; v < vars; ++v) {
    const int bytes = c.element_bytes[static_cast<std::size_t>(v)];
    const std::int64_t step = bytes + c.gap;
    const std::int64_t total = c.base_offset + step * c.pitch * kRows * kPlanes + 16;
    fields.storage.emplace_back(static_cast<std::size_t>(total / 8 + 2), 0);
    auto* raw = reinterpret_cast<std::byte*>(fields.storage.back().data());
    for (std::int64_t i = 0; i < total; ++i) {
      raw[i] = patterned ? static_cast<std::byte>((i * 13 + v * 57 + 5) & 0xff) : std::byte{0x5a};
    }
    hk::VariableView& view = fields.set.variables[v];
    view.base = raw + c.base_offset;
    view.stride[0] = step;
    view.stride[1] = step * c.pitch;
    view.stride[2] = step * c.pitch * kRows;
    view.element_bytes = bytes;
  }
  fields.set.variable_count = vars;
  fields.set.alignment = hk::alignment_of(fields.set);
  return fields;
}

std::vector<std::byte> bytes_of(const Fields& fields) {
  std::vector<std::byte> all;
  for (const auto& words : fields.storage) {
    const auto* raw = reinterpret_cast<const std::byte*>(words.data());
    all.insert(all.end(), raw, raw + words.size() * sizeof(std::uint64_t));
  }
  return all;
}

hk::MessageLayout layout_of(const Case& c) {
  hk::MessageLayout layout{};
  for (const hk::Box& box : c.boxes) layout.boxes[layout.box_count++] = box;
  layout.buffer_offset = c.message_offset;
  layout.set_variables(static_cast<int>(c.element_bytes.size()), c.element_bytes.data());
  return layout;
}

// A buffer with the message at `offset` from a 16-byte aligned start and guard bytes around it.
struct Buffer {
  std::vector<std::uint64_t> words;
  std::byte* message = nullptr;
  Buffer(std::int64_t offset, std::int64_t bytes)
      : words(static_cast<std::size_t>((kGuard + offset + bytes + kGuard) / 8 + 2), 0) {
    message = reinterpret_cast<std::byte*>(words.data()) + kGuard + offset;
  }
};

void run_grid(bool pack, const hk::MessageLayout& layout, const hk::FieldSet& fields,
              std::byte* message, std::uint32_t threads) {
  for (std::uint32_t t = 0; t < threads; ++t) {
    if (pack) {
      hk::fused_pack_message(layout, fields, message, t, threads);
    } else {
      hk::fused_unpack_message(layout, fields, message, t, threads);
    }
  }
}

void check_case(const Case& c) {
  SCOPED_TRACE(c.name);
  const hk::MessageLayout layout = layout_of(c);
  const Fields source = make_fields(c, true);
  Buffer reference(c.message_offset, layout.bytes());
  hk::pack_message_at(layout, source.set, reference.message, 0, 1);
  Fields expected = make_fields(c, false);
  hk::unpack_message_from(layout, expected.set, reference.message, 0, 1);
  for (const std::uint32_t threads : {1u, 2u, 3u, 7u, 64u, 4096u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    Buffer packed(c.message_offset, layout.bytes());
    run_grid(true, layout, source.set, packed.message, threads);
    EXPECT_EQ(packed.words, reference.words);
    Fields got = make_fields(c, false);
    run_grid(false, layout, got.set, reference.message, threads);
    EXPECT_EQ(bytes_of(got), bytes_of(expected));
  }
}

TEST(FusedChunks, MoveAsTheSharedMoverForEveryElementSizeAndLayout) {
  const std::vector<Case> cases = {
      {"double, dense", {8}, 0, 41, 0, 0, mixed_boxes()},
      {"double, dense rows 16-byte aligned", {8}, 0, 40, 8, 0, {hk::Box{{1, 0, 0}, {36, 7, 3}}}},
      {"double, two variables, padded", {8, 8}, 0, 48, 0, 16, mixed_boxes()},
      {"double, x face only", {8}, 0, 41, 0, 0, {hk::Box{{40, 0, 0}, {1, 7, 3}}}},
      {"double, interleaved in 24-byte cells", {8}, 16, 41, 0, 32, mixed_boxes()},
      {"float, dense", {4}, 0, 41, 4, 16, mixed_boxes()},
      {"float, three variables", {4, 4, 4}, 0, 44, 0, 0, mixed_boxes()},
      {"float in 12-byte cells", {4}, 8, 41, 4, 0, mixed_boxes()},
      {"int16, padded", {2}, 0, 44, 2, 48, mixed_boxes()},
      {"bytes, dense", {1}, 0, 41, 1, 0, mixed_boxes()},
      {"bytes, two interleaved", {1, 1}, 3, 41, 0, 16, mixed_boxes()},
      {"bytes, rows 16-byte aligned", {1}, 0, 48, 0, 0, {hk::Box{{16, 0, 0}, {32, 7, 3}}}},
      {"sixteen bytes", {16}, 0, 41, 0, 16, mixed_boxes()},
      {"sixteen bytes interleaved", {16}, 16, 41, 0, 0, mixed_boxes()},
      {"sixteen bytes 8-byte aligned (shared mover)", {16}, 0, 41, 8, 16, mixed_boxes()},
      {"twelve bytes (shared mover)", {12}, 0, 41, 0, 16, mixed_boxes()},
      {"float and double (shared mover)", {4, 8}, 0, 41, 0, 16, mixed_boxes()},
      {"double, message 8-byte aligned (shared mover)", {8}, 0, 41, 0, 8, mixed_boxes()},
      {"bytes, message at an odd place (shared mover)", {1}, 0, 41, 0, 3, mixed_boxes()},
      {"double, fields 4-byte aligned (shared mover)", {8}, 0, 41, 4, 0, mixed_boxes()},
  };
  for (const Case& c : cases) check_case(c);
}

// Whether a message moves by chunks depends on where its data lie, not on its buffer_offset: a
// node sender packs into the receiver's buffer, at the receiver's place.
TEST(FusedChunks, MoveByChunksOnlyWhereTheDataAreAligned) {
  const Case c{"double", {8}, 0, 41, 0, 16, mixed_boxes()};
  const hk::MessageLayout layout = layout_of(c);
  const Fields fields = make_fields(c, true);
  alignas(16) std::byte buffer[32] = {};
  EXPECT_EQ(hk::detail::chunk_bytes(layout, fields.set, buffer), 8);
  EXPECT_EQ(hk::detail::chunk_bytes(layout, fields.set, buffer + 8), 0);
  const Case mixed{"mixed", {4, 8}, 0, 41, 0, 0, mixed_boxes()};
  EXPECT_EQ(hk::detail::chunk_bytes(layout_of(mixed), make_fields(mixed, true).set, buffer), 0);
}

// A thread per 16-byte chunk of a message of one element size, else a thread per element.
TEST(FusedChunks, ThreadsPerMessage) {
  const Case doubles{"double", {8}, 0, 41, 0, 0, {hk::Box{{0, 0, 0}, {5, 1, 1}}}};
  EXPECT_EQ(hk::fused_threads_for(layout_of(doubles)), 3);  // 40 bytes
  const Case bytes{"bytes", {1, 1}, 0, 41, 0, 0, {hk::Box{{0, 0, 0}, {40, 1, 1}}}};
  EXPECT_EQ(hk::fused_threads_for(layout_of(bytes)), 5);  // 80 bytes
  const Case mixed{"mixed", {4, 8}, 0, 41, 0, 0, {hk::Box{{0, 0, 0}, {5, 1, 1}}}};
  EXPECT_EQ(hk::fused_threads_for(layout_of(mixed)), 10);
}

}  // namespace
