/// @file
/// The prediction of one exchange for one strategy (docs/model.md, "Prediction per strategy"):
/// where the paper's bound (prediction.hpp) assumes every transfer runs side by side, this lays
/// out the phases the strategy runs one after another, each timed with a term measured on the
/// machine:
///   - a fixed cost per exchange (launches, synchronisations, flag crossings, the host's
///     progress loop), measured on an exchange of tiny messages, or else composed from the launch
///     and flag terms;
///   - the pack: the bulk strategies' fused kernel (latency + bytes / bandwidth), or one block per
///     message, bound by the slowest message's block and by the bytes the GPU's link carries for
///     every rank sharing it;
///   - the MPI transfer: within a node, one CPU copy thread per rank copies every byte it sends
///     and receives, one message after another; between nodes the K-model's time;
///   - the unpack, as the pack;
///   - for the flag strategies with messages in pieces over MPI (halo/mpi_pieces.hpp): a
///     pipeline, so the pack is the first piece's and the unpack the last piece's (docs/model.md,
///     "Pieces over MPI");
///   - on the node transport, the flag strategies' node grid: every node message in pieces at
///     once, straight into the receiver's memory; the rank's busier direction decides, timed by
///     the grid's term measured for the strategy (or composed from the device pack and a flag).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/rank_mapping.hpp"
#include "haloflag/model/transport.hpp"

namespace haloflag::model {

/// One phase of a strategy prediction and its time.
struct PhaseTime {
  /// e.g. "fixed", "pack", "mpi", "unpack", "pack (first piece)", "unpack (last piece)",
  /// "node pieces"
  std::string name;
  double seconds = 0.0;  ///< the phase's time
  /// Equal in every field.
  bool operator==(const PhaseTime&) const = default;
};

/// The predicted time of one exchange with one strategy, and its phases.
struct StrategyPrediction {
  halo::Strategy strategy = halo::Strategy::comb_fused;  ///< the strategy predicted
  bool node_transport_used = false;  ///< messages within a node took the node transport
  int ranks_per_gpu = 1;  ///< ranks sharing one GPU
  std::int64_t mpi_piece_bytes = 0;  ///< pieces over MPI charged; 0: messages whole (bulk: always)
  double seconds = 0.0;              ///< the slowest rank's
  int critical_rank = 0;             ///< that rank (the lowest on ties)
  double fixed_seconds = 0.0;  ///< the fixed cost charged
  bool fixed_measured = false;       ///< from the file's fixed_s, not composed
  std::vector<PhaseTime> phases;     ///< of the critical rank, fixed first; they add up to seconds
  std::vector<std::string> notes;  ///< remarks on the prediction
};

/// Why the model has neither a bound nor a prediction for `strategy`, or "" when it has both:
/// `embedded` packs in the caller's kernel, `nccl` moves its bytes through NCCL, which no term
/// of the model describes.
std::string unmodelled_reason(halo::Strategy strategy);

/// mpi_piece_bytes: the exchange's piece size over MPI (halo::AdvancedOptions::mpi_piece_bytes),
/// 0 for whole messages; the bulk strategies, which never cut, ignore it.
/// Throws ModelError when the params have no schedule terms (naming the key), the strategy is
/// unmodelled (unmodelled_reason), ranks_per_gpu < 1, mpi_piece_bytes < 0, or the config does not
/// fit the mapping; for TransportChoice::node when the params have no node transport terms.
StrategyPrediction predict_strategy(const halo::ExchangeConfig& config,
                                    const MachineParams& params, const RankMapping& mapping,
                                    halo::Strategy strategy, TransportChoice transport,
                                    int ranks_per_gpu, std::int64_t mpi_piece_bytes = 0);

}  // namespace haloflag::model
