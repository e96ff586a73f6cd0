// An exchange timeline as JSON, the form in which ranks send theirs to rank 0 for the trace
// file. Times stay in nanoseconds after the exchange's start; start_ns is the host clock.
#pragma once

#include <nlohmann/json.hpp>

#include "haloflag/halo/exchange_timeline.hpp"

namespace haloflag::bench {

// {"epoch", "start_ns", "duration_ns", "device_times", "clock_uncertainty_ns",
//  "sends": [{"peer","tag","bytes","pack_begin","packed","ready_seen","posted"}],
//  "recvs": [{"peer","tag","bytes","received","ready_seen","unpacked","done_seen"}],
//  "mpi_calls": [{"call","begin","end","completed"}]};
// a time that was not recorded is null.
nlohmann::json timeline_json(const halo::ExchangeTimeline& timeline);

}  // namespace haloflag::bench
