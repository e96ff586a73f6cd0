// The K-model's lower bound of one exchange of the run's config (paper Eq. 1-4), printed beside
// the measurements, with where its parameters came from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/model/machine_params.hpp"

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
};

// Throws model::ParamsError for a bad parameter file. A config the model cannot take (no rank
// mapping in the file, ranks that do not fit it) gives an estimate without a bound and a reason.
ModelEstimate estimate_exchange(const halo::ExchangeConfig& config, const std::string& params_file);

}  // namespace haloflag::bench
