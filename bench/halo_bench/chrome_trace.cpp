#include "chrome_trace.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace haloflag::bench {
namespace {

using nlohmann::json;

constexpr int kCpuRow = 0;
constexpr int kPackRowBase = 1000;    // + send index
constexpr int kUnpackRowBase = 2000;  // + receive index

struct RankTimelines {
  int rank = 0;
  std::string strategy;
  json timelines;  // array
};

double microseconds(std::int64_t ns, std::int64_t origin_ns) {
  return static_cast<double>(ns - origin_ns) / 1e3;
}

json metadata(const char* name, int pid, int tid, json args) {
  return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

json slice(std::string name, int pid, int tid, double begin_us, double end_us, json args) {
  return {{"name", std::move(name)}, {"ph", "X"},  {"pid", pid},
          {"tid", tid},              {"ts", begin_us}, {"dur", std::max(end_us - begin_us, 0.0)},
          {"args", std::move(args)}};
}

json instant(std::string name, int pid, double at_us, json args) {
  return {{"name", std::move(name)}, {"ph", "i"}, {"s", "t"}, {"pid", pid},
          {"tid", kCpuRow},          {"ts", at_us}, {"args", std::move(args)}};
}

json message_args(const json& message) {
  return {{"peer", message["peer"]}, {"tag", message["tag"]}, {"bytes", message["bytes"]}};
}

// The rows of one kind of message from `row_base` on, each named "device: <work> <index>
// <toward> <peer>".
void name_message_rows(json& events, int rank, const json& messages, int row_base,
                       const std::string& work, const std::string& toward) {
  for (std::size_t m = 0; m < messages.size(); ++m) {
    const int row = row_base + static_cast<int>(m);
    events.push_back(metadata("thread_name", rank, row,
                              {{"name", "device: " + work + " " + std::to_string(m) + " " +
                                            toward + " " +
                                            std::to_string(messages[m]["peer"].get<int>())}}));
    events.push_back(metadata("thread_sort_index", rank, row, {{"sort_index", row}}));
  }
}

// Row names of one rank, from the messages of its first timeline.
void name_rows(json& events, int rank, const json& timeline) {
  events.push_back(metadata("process_name", rank, 0, {{"name", "rank " + std::to_string(rank)}}));
  events.push_back(metadata("process_sort_index", rank, 0, {{"sort_index", rank}}));
  events.push_back(metadata("thread_name", rank, kCpuRow, {{"name", "CPU state machine"}}));
  events.push_back(metadata("thread_sort_index", rank, kCpuRow, {{"sort_index", kCpuRow}}));
  name_message_rows(events, rank, timeline["sends"], kPackRowBase, "pack send", "to");
  name_message_rows(events, rank, timeline["recvs"], kUnpackRowBase, "unpack recv", "from");
}

void add_exchange(json& events, const RankTimelines& owner, const json& timeline,
                  std::int64_t origin_ns) {
  const int pid = owner.rank;
  const std::int64_t start = timeline["start_ns"].get<std::int64_t>();
  const auto at = [&](const json& relative_ns) {
    return microseconds(start + relative_ns.get<std::int64_t>(), origin_ns);
  };
  const double begin = microseconds(start, origin_ns);
  const double end = begin + static_cast<double>(timeline["duration_ns"].get<std::int64_t>()) / 1e3;
  events.push_back(slice(owner.strategy + " exchange " + std::to_string(timeline["epoch"].get<std::uint64_t>()),
                         pid, kCpuRow, begin, end,
                         {{"strategy", owner.strategy},
                          {"device_clock_uncertainty_us",
                           static_cast<double>(timeline["clock_uncertainty_ns"].get<std::int64_t>()) / 1e3}}));
  if (!timeline["started"].is_null()) {
    events.push_back(slice("start()", pid, kCpuRow, begin, at(timeline["started"]),
                           {{"what", "receives posted, kernels launched or armed"}}));
  }
  const json& sends = timeline["sends"];
  for (std::size_t m = 0; m < sends.size(); ++m) {
    const json& send = sends[m];
    const std::string id = std::to_string(m);
    if (!send["ready_seen"].is_null()) {
      events.push_back(instant("send_ready " + id + " seen", pid, at(send["ready_seen"]), message_args(send)));
    }
    if (!send["posted"].is_null()) {
      events.push_back(instant("MPI_Isend " + id, pid, at(send["posted"]), message_args(send)));
    }
    if (!send["pack_begin"].is_null() && !send["packed"].is_null()) {
      events.push_back(slice("pack " + id, pid, kPackRowBase + static_cast<int>(m),
                             at(send["pack_begin"]), at(send["packed"]), message_args(send)));
    }
  }
  // The state machine's MPI calls that took time or completed something, as slices of its row.
  for (const json& call : timeline["mpi_calls"]) {
    events.push_back(slice(call["call"].get<std::string>(), pid, kCpuRow, at(call["begin"]),
                           at(call["end"]), {{"completed", call["completed"]}}));
  }
  const json& recvs = timeline["recvs"];
  for (std::size_t r = 0; r < recvs.size(); ++r) {
    const json& recv = recvs[r];
    const std::string id = std::to_string(r);
    if (!recv["received"].is_null()) {
      events.push_back(instant("receive " + id + " complete", pid, at(recv["received"]), message_args(recv)));
    }
    if (!recv["done_seen"].is_null()) {
      events.push_back(instant("unpack_done " + id + " seen", pid, at(recv["done_seen"]), message_args(recv)));
    }
    if (!recv["ready_seen"].is_null() && !recv["unpacked"].is_null()) {
      events.push_back(slice("unpack " + id, pid, kUnpackRowBase + static_cast<int>(r),
                             at(recv["ready_seen"]), at(recv["unpacked"]), message_args(recv)));
    }
  }
}

}  // namespace

json chrome_trace(const std::vector<StrategyTimelines>& traces) {
  std::vector<RankTimelines> all;
  std::int64_t origin_ns = std::numeric_limits<std::int64_t>::max();
  for (const StrategyTimelines& trace : traces) {
    for (std::size_t rank = 0; rank < trace.per_rank_json.size(); ++rank) {
      RankTimelines owner{static_cast<int>(rank), trace.strategy,
                          json::parse(trace.per_rank_json[rank])};
      for (const json& timeline : owner.timelines) {
        origin_ns = std::min(origin_ns, timeline["start_ns"].get<std::int64_t>());
      }
      all.push_back(std::move(owner));
    }
  }
  json events = json::array();
  std::vector<bool> named;
  for (const RankTimelines& owner : all) {
    if (owner.timelines.empty()) continue;
    const auto rank = static_cast<std::size_t>(owner.rank);
    if (named.size() <= rank) named.resize(rank + 1, false);
    if (!named[rank]) {
      name_rows(events, owner.rank, owner.timelines.front());
      named[rank] = true;
    }
    for (const json& timeline : owner.timelines) add_exchange(events, owner, timeline, origin_ns);
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ns"},
          {"otherData",
           {{"tool", "halo_bench"},
            {"clock", "host steady clock; device stamps converted with a measured offset"}}}};
}

}  // namespace haloflag::bench
