// The K-model's lower bound of one exchange of the run's config (paper Eq. 1-4) and each
// strategy's predicted time (docs/model.md, "Prediction per strategy"), printed beside the
// measurements, with where their parameters came from.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/strategy_prediction.hpp"
#include "haloflag/model/transport.hpp"
#include "params_choice.hpp"

namespace haloflag::bench {

struct ModelEstimate {
  std::string params_file;
  ParamsChoice params_choice;
  model::Provenance provenance;
  bool paper_machine = false;   // the shipped parameters of the paper's Power9+V100 system
  std::string mapping;          // the rank placement assumed, e.g. "consecutive, 4 ranks per node, ..."
  std::optional<double> bound_seconds;  // empty when no prediction could be made
  int critical_rank = 0;
  std::string unavailable_reason;       // why bound_seconds is empty
  std::vector<std::string> notes;       // the prediction's own notes (table clamping, ...)
  model::TransportChoice transport = model::TransportChoice::mpi;  // as asked
  bool node_transport_used = false;     // messages within a node timed on the node transport
  std::shared_ptr<const model::MachineParams> params;  // what was read, for the predictions
};

// One strategy's predicted time, or why there is none.
struct RowPrediction {
  std::optional<model::StrategyPrediction> prediction;
  std::string unavailable_reason;
};

// Throws model::ParamsError for a bad parameter file. A config the model cannot take (no rank
// mapping in the file, ranks that do not fit it, the node transport without its terms) gives an
// estimate without a bound and a reason. `transport` should match the run's (docs/model.md).
ModelEstimate estimate_exchange(const halo::ExchangeConfig& config, const ParamsChoice& params,
                                model::TransportChoice transport = model::TransportChoice::mpi);

// The prediction of `strategy` for exchanges whose messages took MPI, the node transport or both
// (`mpi_links`, `node_links` of the run), with `ranks_per_gpu` sharing each GPU and the MPI
// messages cut into pieces of `mpi_piece_bytes` (0: whole).
RowPrediction predict_row(const ModelEstimate& model, const halo::ExchangeConfig& config,
                          halo::Strategy strategy, int mpi_links, int node_links,
                          int ranks_per_gpu, std::int64_t mpi_piece_bytes);

}  // namespace haloflag::bench
