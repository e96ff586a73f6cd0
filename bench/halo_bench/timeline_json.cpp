#include "timeline_json.hpp"

namespace haloflag::bench {
namespace {

using nlohmann::json;

json time_or_null(std::int64_t time) {
  return time == halo::kNotRecorded ? json(nullptr) : json(time);
}

}  // namespace

json timeline_json(const halo::ExchangeTimeline& timeline) {
  json sends = json::array();
  for (const halo::SendTimeline& send : timeline.sends) {
    sends.push_back({{"peer", send.peer},
                     {"tag", send.tag},
                     {"bytes", send.bytes},
                     {"pack_begin", time_or_null(send.pack_begin)},
                     {"packed", time_or_null(send.packed)},
                     {"ready_seen", time_or_null(send.ready_seen)},
                     {"posted", time_or_null(send.posted)}});
  }
  json recvs = json::array();
  for (const halo::RecvTimeline& recv : timeline.recvs) {
    recvs.push_back({{"peer", recv.peer},
                     {"tag", recv.tag},
                     {"bytes", recv.bytes},
                     {"received", time_or_null(recv.received)},
                     {"ready_seen", time_or_null(recv.ready_seen)},
                     {"unpacked", time_or_null(recv.unpacked)},
                     {"done_seen", time_or_null(recv.done_seen)}});
  }
  json mpi_calls = json::array();
  for (const halo::MpiCallTimeline& call : timeline.mpi_calls) {
    mpi_calls.push_back({{"call", halo::to_string(call.call)},
                         {"begin", call.begin},
                         {"end", call.end},
                         {"completed", call.completed}});
  }
  const halo::StreamTimeline& stream = timeline.stream;
  const json steps = {{"pack_launched", time_or_null(stream.pack_launched)},
                      {"transfers_enqueued", time_or_null(stream.transfers_enqueued)},
                      {"unpack_launched", time_or_null(stream.unpack_launched)},
                      {"done_seen", time_or_null(stream.done_seen)},
                      {"gpu_pack_ns", time_or_null(stream.gpu_pack_ns)},
                      {"gpu_transfers_ns", time_or_null(stream.gpu_transfers_ns)},
                      {"gpu_unpack_ns", time_or_null(stream.gpu_unpack_ns)}};
  return {{"epoch", timeline.epoch},
          {"start_ns", timeline.start_ns},
          {"started", time_or_null(timeline.started)},
          {"duration_ns", timeline.duration_ns},
          {"device_times", timeline.has_device_times},
          {"clock_uncertainty_ns", timeline.clock_uncertainty_ns},
          {"sends", sends},
          {"recvs", recvs},
          {"mpi_calls", mpi_calls},
          {"stream", steps}};
}

}  // namespace haloflag::bench
