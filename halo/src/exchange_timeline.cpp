#include "haloflag/halo/exchange_timeline.hpp"

#include <algorithm>

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
  for (const RecvTimeline& recv : timeline.recvs) {
    take_max(phases.last_receive, recv.received);
    take_max(phases.last_unpack_done, recv.done_seen);
  }
  phases.total = timeline.duration_ns;
  return phases;
}

}  // namespace haloflag::halo
