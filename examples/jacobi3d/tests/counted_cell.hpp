// A field element for the sweeps' tests: it counts how often it is written, and which block
// wrote it last. The sweeps' own update_cell runs on it unchanged (its arithmetic is empty), so a
// cell the index stepping skips, visits twice or misplaces shows in the counts.
#pragma once

namespace jacobi3d::counted_cell {

// The block of the member that runs on this thread (-1: none said), recorded by each write.
inline thread_local int writing_block = -1;

struct Counted {
  int writes = 0;
  int writer = -1;
  Counted() = default;
  explicit Counted(int) {}
  Counted(const Counted&) = default;
  Counted& operator=(const Counted& other) {
    if (this != &other) {
      ++writes;
      writer = writing_block;
    }
    return *this;
  }
  Counted& operator+=(const Counted&) { return *this; }
  Counted operator*(const Counted&) const { return {}; }
  Counted operator/(const Counted&) const { return {}; }
};

}  // namespace jacobi3d::counted_cell
