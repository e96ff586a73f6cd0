#include "haloflag/halo/exchange_timeline.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace haloflag::halo {
namespace {

void take_min(std::int64_t& into, std::int64_t time) {
  if (time == kNotRecorded) return;
  into = into == kNotRecorded ? time : std::min(into, time);
}

void take_max(std::int64_t& into, std::int64_t time) {
  if (time == kNotRecorded) return;
  into = into == kNotRecorded ? time : std::max(into, time);
}

}  // namespace

const char* to_string(MpiCall call) {
  switch (call) {
    case MpiCall::test_receives:
      return "MPI_Testsome (receives)";
    case MpiCall::post_arrived_receive:
      return "MPI_Iprobe + MPI_Irecv (on arrival)";
    case MpiCall::test_sends:
      return "MPI_Testsome (sends)";
  }
  return "MPI call";
}

ExchangePhases phases_of(const ExchangeTimeline& timeline) {
  ExchangePhases phases;
  phases.started = timeline.started;
  for (const SendTimeline& send : timeline.sends) {
    take_min(phases.first_send_ready, send.ready_seen);
    take_max(phases.last_send_ready, send.ready_seen);
    take_max(phases.last_send_posted, send.posted);
  }
  // Sends in the order they were posted, each charged from when it could have been.
  std::vector<std::pair<std::int64_t, std::int64_t>> posted;  // (posted, ready_seen)
  for (const SendTimeline& send : timeline.sends) {
    if (send.posted != kNotRecorded && send.ready_seen != kNotRecorded) {
      posted.emplace_back(send.posted, send.ready_seen);
    }
  }
  if (!posted.empty()) {
    std::sort(posted.begin(), posted.end());
    std::int64_t sum = 0;
    std::int64_t previous = kNotRecorded;
    for (const auto& [at, ready] : posted) {
      sum += at - (previous == kNotRecorded ? ready : std::max(ready, previous));
      previous = at;
    }
    phases.post_per_send = sum / static_cast<std::int64_t>(posted.size());
  }
  for (const RecvTimeline& recv : timeline.recvs) {
    take_max(phases.last_receive, recv.received);
    take_max(phases.last_unpack_done, recv.done_seen);
  }
  phases.total = timeline.duration_ns;
  return phases;
}

}  // namespace haloflag::halo
