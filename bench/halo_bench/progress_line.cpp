#include "progress_line.hpp"

#include <cstdio>
#include <utility>

namespace haloflag::bench {

ProgressLine::ProgressLine(std::string what, std::string unit, long total,
                           std::chrono::duration<double> interval, bool enabled)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      interval_(std::chrono::duration_cast<Clock::duration>(interval)),
      enabled_(enabled && interval.count() > 0),
      started_(Clock::now()),
      next_line_(started_ + interval_) {}

void ProgressLine::print(long done, Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  std::fprintf(stderr, "halo_bench: %s: %ld of %ld %s, %.1f s\n", what_.c_str(), done, total_,
               unit_.c_str(), elapsed);
  std::fflush(stderr);
  next_line_ = now + interval_;
}

}  // namespace haloflag::bench
