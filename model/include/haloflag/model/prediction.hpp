/// @file
/// The lower bound of one halo exchange (paper Eq. 1): for each rank,
///   SP + max over the rank's sends of T_comm + LUP,
/// SP the pack time of its shortest send, LUP the unpack time of its longest receive; the
/// exchange's bound is the largest over ranks. A receive's transfer is timed at its sender, so
/// taking the maximum over all ranks covers every message.
///
/// With the node transport, a message to a rank of the same node is packed straight into the
/// peer's memory: its time already holds its pack, so the rank's sends cost the larger of
/// SP + max T_comm over its MPI sends and max T over its node sends; a node receive is unpacked
/// from device memory, at least the node copy time of its bytes (docs/model.md, "Node transport").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/message_time.hpp"
#include "haloflag/model/pack_unpack_table.hpp"
#include "haloflag/model/rank_mapping.hpp"
#include "haloflag/model/transport.hpp"

namespace haloflag::model {

/// The predicted time of one send.
struct MessagePrediction {
  int peer = 0;  ///< receiving rank
  int tag = 0;  ///< MPI tag
  std::int64_t bytes = 0;  ///< size in bytes
  MessageTime time;  ///< class, protocol, N, beta and T_comm
};

/// The bound of one rank and the terms it came from.
struct RankPrediction {
  int rank = 0;  ///< the rank
  RankLocation location;  ///< its node and socket
  ContentionCounts counts;  ///< the flow counts its messages share links with
  std::vector<MessagePrediction> sends;  ///< in the config's order

  /// The send branch the bound charges: SP and the slowest MPI send, or (SP = 0) the slowest node
  /// send when that takes longer. Without node sends: SP of the shortest send and the slowest send.
  std::int64_t shortest_send_bytes = 0;  ///< the send SP packs; 0 when SP is not charged (SP = 0)
  TableLookup sp;  ///< SP: pack time of the shortest send
  int slowest_send = -1;  ///< index into sends, -1 when none
  double t_comm = 0.0;    ///< its time

  /// The receive LUP charges: the longer of the table's unpack time of the longest MPI receive and
  /// the node copy time of the longest node receive.
  std::int64_t longest_recv_bytes = 0;  ///< 0 when the rank receives nothing (LUP = 0)
  MessagePath lup_path = MessagePath::mpi;  ///< the path of the receive LUP charges
  TableLookup lup;  ///< LUP: unpack time of the longest receive

  double bound = 0.0;  ///< sp + t_comm + lup
};

/// The predicted bound of one exchange: every rank's, and the largest.
struct ExchangePrediction {
  std::vector<RankPrediction> ranks;  ///< index = rank
  int critical_rank = 0;              ///< the rank with the largest bound (lowest on ties)
  double bound = 0.0;                 ///< seconds
  std::vector<std::string> notes;     ///< table clamping/extrapolation, each reported once
  TransportChoice transport = TransportChoice::mpi;  ///< as asked
  bool node_transport_used = false;  ///< messages within a node were timed on the node transport

  /// The prediction of the critical rank.
  const RankPrediction& critical() const { return ranks.at(critical_rank); }
};

/// The K-model's counts of every rank (index = rank) for `config` placed by `mapping`: what the
/// bound and the per-strategy prediction both time MPI messages with. Throws ModelError when the
/// config is inconsistent (rank sections, a send's peer out of range) or does not fit the mapping.
std::vector<ContentionCounts> contention_counts(const halo::ExchangeConfig& config,
                                                const RankMapping& mapping);

/// Throws ModelError when the config's ranks do not fit the mapping (naming the counts) or the
/// config is inconsistent (a peer out of range), when the params have no pack/unpack table, and
/// for TransportChoice::node when they have no node transport terms.
ExchangePrediction predict_exchange(const halo::ExchangeConfig& config, const MachineParams& params,
                                    const RankMapping& mapping,
                                    TransportChoice transport = TransportChoice::mpi);

}  // namespace haloflag::model
