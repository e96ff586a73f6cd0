// Sends that update their cells (sent_cell_updates.hpp): every sent cell is updated once, the
// target gets the new values in buffer order, the cells no send covers keep theirs; where every
// element is one access (4 or 8 bytes) the update and the move are one pass with no group
// barrier, whether `update` returns the value or leaves it to be loaded back; elsewhere the
// group updates first and meets its barrier.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "haloflag/kernels/box.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/host_groups.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/sent_cell_updates.hpp"

namespace {

using haloflag::kernels::Box;
using haloflag::kernels::dense;
using haloflag::kernels::FieldSet;
using haloflag::kernels::make_field_set;
using haloflag::kernels::MessageLayout;

constexpr std::int64_t kNx = 5, kNy = 4, kNz = 3;
constexpr std::int64_t kCells = kNx * kNy * kNz;

// One thread that counts its barriers.
struct CountingGroup {
  int* syncs;
  int thread() const { return 0; }
  int size() const { return 1; }
  void sync() const { ++*syncs; }
  int from_leader(int value) const { return value; }
};

// A sent cell's new value from its old one, in the field's type.
template <class T>
T new_value(T old) {
  return old * T(2) + T(1);
}

// Up to two variables of one field (`in`, which stays put, and `out`, the field the send reads)
// and a target field; a send of 7 cells in two boxes into 7 cells of the target.
template <class T0, class T1 = T0>
struct Case {
  std::vector<T0> in0, out0, target0;
  std::vector<T1> in1, out1, target1;
  std::array<std::atomic<int>, 2 * kCells> updates{};  // calls per cell of out, by variable
  MessageLayout source{};
  MessageLayout target{};
  FieldSet from{};
  FieldSet to{};

  explicit Case(int variables) {
    fill(in0, 0);
    fill(in1, 500);
    out0.assign(kCells, T0(-7));
    out1.assign(kCells, T1(-7));
    target0.assign(kCells, T0(-3));
    target1.assign(kCells, T1(-3));
    source.boxes[0] = Box{{1, 1, 1}, {2, 2, 1}};
    source.boxes[1] = Box{{0, 3, 2}, {3, 1, 1}};
    target.boxes[0] = Box{{0, 0, 0}, {5, 1, 1}};
    target.boxes[1] = Box{{0, 1, 2}, {2, 1, 1}};
    source.box_count = target.box_count = 2;
    const int bytes[2] = {static_cast<int>(sizeof(T0)), static_cast<int>(sizeof(T1))};
    source.set_variables(variables, bytes);
    target.set_variables(variables, bytes);
    from = variables == 1 ? make_field_set({dense(out0.data(), kNx, kNy)})
                          : make_field_set({dense(out0.data(), kNx, kNy),
                                            dense(out1.data(), kNx, kNy)});
    to = variables == 1 ? make_field_set({dense(target0.data(), kNx, kNy)})
                        : make_field_set({dense(target0.data(), kNx, kNy),
                                          dense(target1.data(), kNx, kNy)});
  }

  template <class T>
  static void fill(std::vector<T>& values, int first) {
    values.resize(kCells);
    for (std::int64_t c = 0; c < kCells; ++c) values[static_cast<std::size_t>(c)] = T(first + c);
  }

  // Updates the cell of `variable` and counts the call.
  template <class T>
  T update(std::uint32_t variable, std::byte* cell, const std::vector<T>& in, std::vector<T>& out) {
    const std::ptrdiff_t i = reinterpret_cast<T*>(cell) - out.data();
    updates[static_cast<std::size_t>(variable * kCells + i)].fetch_add(1);
    const T value = new_value(in[static_cast<std::size_t>(i)]);
    out[static_cast<std::size_t>(i)] = value;
    return value;
  }

  // The first variable's update that returns the value; the one that returns nothing (either
  // variable).
  auto returning() {
    return [this](std::uint32_t variable, std::byte* cell) {
      return update(variable, cell, in0, out0);
    };
  }
  auto silent() {
    return [this](std::uint32_t variable, std::byte* cell) {
      if (variable == 0) {
        (void)update(variable, cell, in0, out0);
      } else {
        (void)update(variable, cell, in1, out1);
      }
    };
  }

  // Every cell of the send updated once and moved to its target cell; every other cell of out
  // and of the target as it was.
  template <class T>
  void expect_variable(int variable, const std::vector<T>& in, const std::vector<T>& out,
                       const std::vector<T>& into) const {
    std::vector<bool> sent(kCells, false), placed(kCells, false);
    std::vector<std::int64_t> order;
    for (int b = 0; b < 2; ++b)
      for (std::int64_t c = 0; c < source.boxes[b].cells(); ++c) {
        const Box& box = source.boxes[b];
        const std::int64_t x = box.begin[0] + c % box.extent[0];
        const std::int64_t y = box.begin[1] + (c / box.extent[0]) % box.extent[1];
        const std::int64_t z = box.begin[2] + c / (box.extent[0] * box.extent[1]);
        order.push_back((z * kNy + y) * kNx + x);
      }
    std::size_t e = 0;
    for (int b = 0; b < 2; ++b)
      for (std::int64_t c = 0; c < target.boxes[b].cells(); ++c, ++e) {
        const Box& box = target.boxes[b];
        const std::int64_t x = box.begin[0] + c % box.extent[0];
        const std::int64_t y = box.begin[1] + (c / box.extent[0]) % box.extent[1];
        const std::int64_t z = box.begin[2] + c / (box.extent[0] * box.extent[1]);
        const auto at = static_cast<std::size_t>((z * kNy + y) * kNx + x);
        const auto from_cell = static_cast<std::size_t>(order[e]);
        placed[at] = sent[from_cell] = true;
        EXPECT_EQ(into[at], new_value(in[from_cell])) << "variable " << variable << ", cell " << e;
      }
    for (std::size_t c = 0; c < static_cast<std::size_t>(kCells); ++c) {
      const int calls = updates[static_cast<std::size_t>(variable) * kCells + c].load();
      EXPECT_EQ(calls, sent[c] ? 1 : 0) << "variable " << variable << ", field cell " << c;
      EXPECT_EQ(out[c], sent[c] ? new_value(in[c]) : T(-7)) << "field cell " << c;
      if (!placed[c]) {
        EXPECT_EQ(into[c], T(-3)) << "target cell " << c;
      }
    }
  }
};

// Runs `body(group)` on a team of `members` threads (HostTeamGroup).
template <class Body>
void on_team(int members, const Body& body) {
  std::barrier<> barrier(members);
  std::array<int, 2> slots{};
  std::vector<std::thread> threads;
  for (int m = 0; m < members; ++m) {
    threads.emplace_back([&, m] {
      body(haloflag::kernels::HostTeamGroup{&barrier, &slots, m, members});
    });
  }
  for (std::thread& thread : threads) thread.join();
}

template <class Group, class C, class Update>
void move_all(const Group& group, C& c, const Update& update) {
  haloflag::kernels::move_sent_elements(group, c.source, c.from, 0,
                                        static_cast<std::uint32_t>(c.source.element_count()),
                                        c.target, &c.to, nullptr, update);
}

// The barriers that move_all meets on one thread.
template <class C, class Update>
int barriers_alone(C& c, const Update& update) {
  int syncs = 0;
  move_all(CountingGroup{&syncs}, c, update);
  return syncs;
}

TEST(SentCellUpdates, FloatsThatReturnTheirValueMoveInOnePassWithoutABarrier) {
  for (const int members : {1, 3, 8}) {
    Case<float> c(1);
    on_team(members, [&](const auto& group) { move_all(group, c, c.returning()); });
    c.expect_variable(0, c.in0, c.out0, c.target0);
  }
  Case<float> c(1);
  EXPECT_EQ(barriers_alone(c, c.returning()), 0);
  c.expect_variable(0, c.in0, c.out0, c.target0);
}

TEST(SentCellUpdates, DoublesThatReturnNothingAreLoadedBackWithoutABarrier) {
  for (const int members : {1, 2, 8}) {
    Case<double> c(1);
    on_team(members, [&](const auto& group) { move_all(group, c, c.silent()); });
    c.expect_variable(0, c.in0, c.out0, c.target0);
  }
  Case<double> c(1);
  EXPECT_EQ(barriers_alone(c, c.silent()), 0);
}

TEST(SentCellUpdates, MixedSizesAreUpdatedFirstBehindTheBarrier) {
  for (const int members : {1, 3, 8}) {
    Case<float, double> c(2);
    ASSERT_EQ(c.source.uniform_bytes, 0);
    on_team(members, [&](const auto& group) { move_all(group, c, c.silent()); });
    c.expect_variable(0, c.in0, c.out0, c.target0);
    c.expect_variable(1, c.in1, c.out1, c.target1);
  }
  Case<float, double> c(2);
  EXPECT_EQ(barriers_alone(c, c.silent()), 1);
}

TEST(SentCellUpdates, IntoABufferInBufferOrder) {
  for (const int members : {1, 4}) {
    Case<float> c(1);
    std::vector<float> buffer(8, -5.0f);
    on_team(members, [&](const auto& group) {
      haloflag::kernels::move_sent_elements(group, c.source, c.from, 0, 7, c.source, nullptr,
                                            reinterpret_cast<std::byte*>(buffer.data()),
                                            c.returning());
    });
    const std::size_t order[7] = {26, 27, 31, 32, 55, 56, 57};  // (z * 4 + y) * 5 + x
    for (std::size_t e = 0; e < 7; ++e) EXPECT_EQ(buffer[e], new_value(c.in0[order[e]]));
    EXPECT_EQ(buffer[7], -5.0f);
  }
}

TEST(SentCellUpdates, WithoutAnUpdateTheCellsMoveAsTheyAre) {
  Case<float> c(1);
  for (std::size_t i = 0; i < c.out0.size(); ++i) c.out0[i] = float(i);
  EXPECT_EQ(barriers_alone(c, haloflag::kernels::NoCellUpdate{}), 0);
  // Source cells 26, 27, 31, 32, 55 | 56, 57 land in target cells 0 .. 4 | 45, 46.
  const std::size_t into[7] = {0, 1, 2, 3, 4, 45, 46};
  const float values[7] = {26, 27, 31, 32, 55, 56, 57};
  for (std::size_t e = 0; e < 7; ++e) EXPECT_EQ(c.target0[into[e]], values[e]);
  EXPECT_EQ(c.target0[5], -3.0f);
  EXPECT_EQ(c.out0[26], 26.0f);
}

}  // namespace
