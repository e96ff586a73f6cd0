// The K-model's lower bound of one exchange of the run's config (paper Eq. 1-4), printed beside
// the measurements, with where its parameters came from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/transport.hpp"

namespace haloflag::bench {

struct ModelEstimate {
  std::string params_file;
  model::Provenance provenance;
  bool paper_machine = false;   // the shipped parameters of the paper's Power9+V100 system
  std::string mapping;          // the rank placement assumed, e.g. "consecutive, 4 ranks per node, ..."
  std::optional<double> bound_seconds;  // empty when no prediction could be made
  int critical_rank = 0;
  std::string unavailable_reason;       // why bound_seconds is empty
  std::vector<std::string> notes;       // the prediction's own notes (table clamping, ...)
  model::TransportChoice transport = model::TransportChoice::mpi;  // as asked
  bool node_transport_used = false;     // messages within a node timed on the node transport
};

// Throws model::ParamsError for a bad parameter file. A config the model cannot take (no rank
// mapping in the file, ranks that do not fit it, the node transport without its terms) gives an
// estimate without a bound and a reason. `transport` should match the run's (docs/model.md).
ModelEstimate estimate_exchange(const halo::ExchangeConfig& config, const std::string& params_file,
                                model::TransportChoice transport = model::TransportChoice::mpi);

}  // namespace haloflag::bench
