// The node transport's lines (kernels/transports/node/node_lines.hpp) on the host, without MPI:
//   - every element size and path (words of doubles and floats, of 12-byte structures and mixed
//     variables, bytes gathered from fields that are not 4-byte aligned) comes back byte for
//     byte, through both sets of words, for groups of 1 and 5 threads;
//   - a word of another epoch (stale, or the stale half of a torn element) is never taken: the
//     wait ends at its deadline, names node_arrival[peer], the epoch and the flag it saw, and
//     its bytes stay as they were;
//   - fuzzed: words of random pieces flagged with random other epochs; a take succeeds exactly
//     when every word of its range carries the epoch, and then every byte is the sender's.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/transports/node/node_lines.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flagged_words.hpp"

namespace haloflag::kernels {
namespace {

namespace hn = haloflag::notify;
using namespace std::chrono_literals;

constexpr std::uint32_t kArrivalId = 9;
constexpr std::uint32_t kPeer = 2;

// Thread `t` of a group of `n`: the moves only stride by it.
struct Lane {
  int t;
  int n;
  int thread() const { return t; }
  int size() const { return n; }
  void sync() const {}
  int from_leader(int value) const { return value; }
};

// A field of nx * ny cells of `cell_bytes` bytes, one variable per entry of `members` (its
// element size), interleaved in the cells, starting `offset` bytes into its storage.
struct Field {
  std::vector<std::byte> storage;
  FieldSet fields;
  Field(std::int64_t nx, std::int64_t ny, const std::vector<int>& members, std::size_t offset) {
    int cell = 0;
    for (const int bytes : members) cell += bytes;
    storage.assign(offset + static_cast<std::size_t>(nx * ny * cell), std::byte{0});
    int at = 0;
    for (const int bytes : members) {
      VariableView view;
      view.base = storage.data() + offset + at;
      view.stride[0] = cell;
      view.stride[1] = cell * nx;
      view.stride[2] = cell * nx * ny;
      view.element_bytes = bytes;
      fields.variables[fields.variable_count++] = view;
      at += bytes;
    }
    fields.alignment = alignment_of(fields);
  }
  void fill(std::uint32_t seed) {
    std::mt19937 random(seed);
    for (std::byte& b : storage) b = static_cast<std::byte>(random());
  }
};

// The message: a 5 x 3 box at (1, 1) of every variable.
MessageLayout message_of(const std::vector<int>& members) {
  MessageLayout layout{};
  layout.box_count = 1;
  layout.boxes[0] = Box{{1, 1, 0}, {5, 3, 1}};
  layout.buffer_offset = 0;
  layout.set_variables(static_cast<int>(members.size()), members.data());
  return layout;
}

struct Case {
  std::string name;
  std::vector<int> members;
  std::size_t offset;  // bytes: 1 leaves the fields byte-aligned only
};

std::vector<Case> cases() {
  return {{"doubles", {8}, 0},          {"float words", {4}, 0},
          {"12-byte struct words", {12}, 0}, {"double + float interleaved", {8, 4}, 0},
          {"16-byte struct", {16}, 0},       {"double, byte-aligned fields", {8}, 1},
          {"float, byte-aligned fields", {4}, 1}};
}

// The cells of `layout` in `field`, in buffer order.
std::vector<std::byte> cells_of(const Field& field, const MessageLayout& layout) {
  std::vector<std::byte> out;
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const detail::FieldSide side{&layout, &field.fields, cells};
  for (std::int64_t b = 0; b < layout.bytes(); ++b) out.push_back(*side.place_of_byte(b).address);
  return out;
}

hn::FlaggedWait how_to_wait(const hn::ControlBlock& block, hn::WaitControl& control) {
  control = block.device_control();
  return {control, kArrivalId, kPeer, /*waiter=*/7, hn::AbortReads::late};
}

bool take_all(const Field& to, const MessageLayout& layout, const std::uint64_t* lines,
              std::uint64_t epoch, const hn::FlaggedWait& how, std::uint32_t first,
              std::uint32_t end, int threads) {
  bool ok = true;
  for (int t = 0; t < threads; ++t) {
    ok = take_lines(Lane{t, threads}, layout, to.fields, first, end, lines, epoch, how) && ok;
  }
  return ok;
}

TEST(NodeLines, EveryElementSizeComesBackByteForByteThroughBothSets) {
  for (const Case& c : cases()) {
    for (const int threads : {1, 5}) {
      const MessageLayout layout = message_of(c.members);
      Field from(8, 6, c.members, c.offset);
      Field to(8, 6, c.members, c.offset);
      std::vector<std::uint64_t> buffer(
          static_cast<std::size_t>(line_buffer_bytes(layout.bytes()) / 8), 0);
      hn::ControlBlock block(hn::Backend::host, 1s);
      hn::WaitControl control;
      const hn::FlaggedWait how = how_to_wait(block, control);
      const auto elements = static_cast<std::uint32_t>(layout.element_count());
      for (std::uint64_t epoch = 1; epoch <= 4; ++epoch) {
        from.fill(static_cast<std::uint32_t>(epoch * 31 + threads));
        std::uint64_t* lines =
            lines_of_epoch(reinterpret_cast<std::byte*>(buffer.data()), layout, epoch);
        for (int t = 0; t < threads; ++t) {
          put_lines(Lane{t, threads}, layout, from.fields, 0, elements, lines, epoch);
        }
        ASSERT_TRUE(take_all(to, layout, lines, epoch, how, 0, elements, threads))
            << c.name << ", epoch " << epoch;
        EXPECT_EQ(cells_of(to, layout), cells_of(from, layout)) << c.name << ", epoch " << epoch;
      }
      EXPECT_FALSE(block.failure(hn::Side::device).has_value()) << c.name;
    }
  }
}

// A message of doubles between two fields, and its receive's two sets of words.
struct DoublesMessage {
  std::vector<int> members{8};
  MessageLayout layout = message_of(members);
  Field from{8, 6, members, 0};
  Field to{8, 6, members, 0};
  std::vector<std::uint64_t> buffer =
      std::vector<std::uint64_t>(static_cast<std::size_t>(line_buffer_bytes(layout.bytes()) / 8));
  explicit DoublesMessage(std::uint32_t seed) { from.fill(seed); }
  std::uint64_t* lines(std::uint64_t epoch) {
    return lines_of_epoch(reinterpret_cast<std::byte*>(buffer.data()), layout, epoch);
  }
};

// The buffer holds epoch 1's words; epoch 3 (the same set) is expected.
TEST(NodeLines, AStaleWordIsNeverTakenAndTheFailureNamesTheArrival) {
  DoublesMessage message(5);
  const MessageLayout& layout = message.layout;
  std::uint64_t* lines = message.lines(1);
  ASSERT_EQ(lines, message.lines(3));
  const auto elements = static_cast<std::uint32_t>(layout.element_count());
  put_lines(Lane{0, 1}, layout, message.from.fields, 0, elements, lines, 1);
  hn::ControlBlock block(hn::Backend::host, 20ms);
  hn::WaitControl control;
  const hn::FlaggedWait how = how_to_wait(block, control);
  EXPECT_FALSE(take_all(message.to, layout, lines, 3, how, 0, elements, 1));
  const auto failure = block.failure(hn::Side::device);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->outcome, hn::WaitOutcome::timed_out);
  EXPECT_EQ(failure->index, kPeer);
  EXPECT_EQ(failure->expected_epoch, 3u);
  EXPECT_EQ(failure->last_seen, 1u);
  EXPECT_EQ(failure->waiter, 7u);
  EXPECT_EQ(cells_of(message.to, layout),
            std::vector<std::byte>(static_cast<std::size_t>(layout.bytes())))
      << "a stale word was taken";
}

// A double torn in two: its first word carries the epoch, its second the epoch two before.
// The stale half is never taken; the wait names the flag it saw.
TEST(NodeLines, TheStaleHalfOfATornElementIsNeverTaken) {
  DoublesMessage message(6);
  std::uint64_t* lines = message.lines(4);
  put_lines(Lane{0, 1}, message.layout, message.from.fields, 0, 1, lines, 4);
  lines[1] = hn::flagged_word(hn::word_data(lines[1]), 2);
  hn::ControlBlock block(hn::Backend::host, 20ms);
  hn::WaitControl control;
  EXPECT_FALSE(take_all(message.to, message.layout, lines, 4, how_to_wait(block, control), 0, 1, 1));
  ASSERT_TRUE(block.failure(hn::Side::device).has_value());
  EXPECT_EQ(block.failure(hn::Side::device)->last_seen, 2u);
  const std::vector<std::byte> got = cells_of(message.to, message.layout);
  for (std::size_t b = 4; b < got.size(); ++b) {
    ASSERT_EQ(got[b], std::byte{0}) << "byte " << b << " was taken from a stale word";
  }
}

TEST(NodeLines, FuzzedFlagsAreTakenExactlyWhenEveryWordCarriesTheEpoch) {
  std::mt19937 random(2026);
  const std::vector<Case> all = cases();
  for (int round = 0; round < 150; ++round) {
    const Case& c = all[random() % all.size()];
    const MessageLayout layout = message_of(c.members);
    Field from(8, 6, c.members, c.offset);
    Field to(8, 6, c.members, c.offset);
    from.fill(random());
    const auto elements = static_cast<std::uint32_t>(layout.element_count());
    std::uint32_t first = random() % elements;
    std::uint32_t end = first + 1 + random() % (elements - first);
    std::vector<std::uint64_t> buffer(static_cast<std::size_t>(line_buffer_bytes(layout.bytes()) / 8));
    const std::uint64_t epoch = 3 + random() % 1000;
    std::uint64_t* lines = lines_of_epoch(reinterpret_cast<std::byte*>(buffer.data()), layout, epoch);
    put_lines(Lane{0, 1}, layout, from.fields, first, end, lines, epoch);
    // Corrupt the flags of a few words anywhere in the set (some outside the range).
    const auto words = static_cast<std::size_t>(line_words(layout.bytes()));
    const std::size_t corrupted = random() % 3;
    const std::uint32_t begin_word = static_cast<std::uint32_t>(
        detail::element_position(layout, static_cast<std::uint32_t>(layout.cells_per_variable()), first) / 4);
    const std::uint32_t end_word = static_cast<std::uint32_t>(
        detail::element_position(layout, static_cast<std::uint32_t>(layout.cells_per_variable()), end) / 4);
    bool hit = false;
    for (std::size_t k = 0; k < corrupted; ++k) {
      const std::size_t w = random() % words;
      const std::uint64_t other = epoch - 1 - random() % 2;
      lines[w] = hn::flagged_word(hn::word_data(lines[w]), other);
      hit = hit || (w >= begin_word && w < end_word);
    }
    hn::ControlBlock block(hn::Backend::host, 2ms);
    hn::WaitControl control;
    const int threads = 1 + static_cast<int>(random() % 4);
    const bool taken =
        take_all(to, layout, lines, epoch, how_to_wait(block, control), first, end, threads);
    EXPECT_EQ(taken, !hit) << c.name << ", round " << round;
    if (taken) {
      // The range's bytes are the sender's; the message's other bytes are untouched.
      const std::vector<std::byte> sent = cells_of(from, layout);
      const std::vector<std::byte> got = cells_of(to, layout);
      const std::int64_t lo = std::int64_t{begin_word} * 4;
      const std::int64_t hi = std::min<std::int64_t>(std::int64_t{end_word} * 4, layout.bytes());
      for (std::int64_t b = 0; b < layout.bytes(); ++b) {
        const std::byte expected = b >= lo && b < hi ? sent[static_cast<std::size_t>(b)] : std::byte{0};
        ASSERT_EQ(got[static_cast<std::size_t>(b)], expected) << c.name << ", byte " << b;
      }
    }
  }
}

}  // namespace
}  // namespace haloflag::kernels
