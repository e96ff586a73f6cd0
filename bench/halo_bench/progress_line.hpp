// A progress line on stderr for long runs ("halo_bench: resident: 41250 of 100000 timed
// exchanges, 20.0 s"), at most one per interval, so that a soak that takes minutes shows it is
// alive. stderr keeps it out of the table on stdout.
#pragma once

#include <chrono>
#include <string>

namespace haloflag::bench {

class ProgressLine {
 public:
  // "<what>: <done> of <total> <unit>, <elapsed> s". `interval` 0 or `enabled` false (ranks
  // other than the one that reports): never prints.
  ProgressLine(std::string what, std::string unit, long total,
               std::chrono::duration<double> interval, bool enabled);

  // Call after each step; prints when an interval has passed since the last line (or the start).
  void step_done(long done) {
    if (!enabled_) return;
    const Clock::time_point now = Clock::now();
    if (now >= next_line_) print(done, now);
  }

 private:
  using Clock = std::chrono::steady_clock;
  void print(long done, Clock::time_point now);

  std::string what_;
  std::string unit_;
  long total_;
  Clock::duration interval_;
  bool enabled_;
  Clock::time_point started_;
  Clock::time_point next_line_;
};

}  // namespace haloflag::bench
