// The copy a node transport's sender makes, timed on the current GPU: one block moves n bytes
// from one device buffer to another the way the pack kernel moves elements, then release-stores
// a flag as a sender announces a message.
#pragma once

#include <cstdint>
#include <vector>

namespace haloflag::bench {

struct CopyTimingPlan {
  std::vector<std::int64_t> sizes;  // bytes, each a multiple of 8 (the pack's element)
  int iterations = 100;             // timed launch pairs per size
  int warmup = 10;                  // untimed launch pairs per size first
  int copies_per_launch = 32;       // >= 2: the long launch's copies
  int threads = 1024;               // of the one block
};

// Per size (in plan order), the time of one copy from every timed pair of launches: the
// difference between a launch of copies_per_launch copies and a launch of one, divided by
// copies_per_launch - 1, so that the launch itself drops out. Each size's copy is checked byte
// for byte first; throws std::runtime_error naming the size and offset of a wrong byte.
std::vector<std::vector<double>> time_device_copies(const CopyTimingPlan& plan);

}  // namespace haloflag::bench
