// The lower bound of one halo exchange (paper Eq. 1): for each rank,
//   SP + max over the rank's sends of T_comm + LUP,
// SP the pack time of its shortest send, LUP the unpack time of its longest receive; the
// exchange's bound is the largest over ranks. A receive's transfer is timed at its sender, so
// taking the maximum over all ranks covers every message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/message_time.hpp"
#include "haloflag/model/pack_unpack_table.hpp"
#include "haloflag/model/rank_mapping.hpp"

namespace haloflag::model {

struct MessagePrediction {
  int peer = 0;
  int tag = 0;
  std::int64_t bytes = 0;
  MessageTime time;  // class, protocol, N, beta and T_comm
};

struct RankPrediction {
  int rank = 0;
  RankLocation location;
  ContentionCounts counts;
  std::vector<MessagePrediction> sends;  // in the config's order

  std::int64_t shortest_send_bytes = 0;  // 0 when the rank sends nothing (SP = 0)
  TableLookup sp;
  std::int64_t longest_recv_bytes = 0;  // 0 when the rank receives nothing (LUP = 0)
  TableLookup lup;
  int slowest_send = -1;  // index into sends, -1 when none
  double t_comm = 0.0;    // max over sends

  double bound = 0.0;  // sp + t_comm + lup
};

struct ExchangePrediction {
  std::vector<RankPrediction> ranks;  // index = rank
  int critical_rank = 0;              // the rank with the largest bound (lowest on ties)
  double bound = 0.0;                 // seconds
  std::vector<std::string> notes;     // table clamping/extrapolation, each reported once

  const RankPrediction& critical() const { return ranks.at(critical_rank); }
};

// Throws ModelError when the config's ranks do not fit the mapping (naming the counts) or the
// config is inconsistent (a peer out of range), and when the params have no pack/unpack table.
ExchangePrediction predict_exchange(const halo::ExchangeConfig& config, const MachineParams& params,
                                    const RankMapping& mapping);

}  // namespace haloflag::model
