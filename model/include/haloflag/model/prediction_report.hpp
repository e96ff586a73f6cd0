/// @file
/// Reports of a prediction: a human table (the CLI's output) and a JSON document.
#pragma once

#include <iosfwd>
#include <string>

#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/prediction.hpp"
#include "haloflag/model/rank_mapping.hpp"
#include "haloflag/model/strategy_prediction.hpp"

namespace haloflag::model {

/// What a prediction report names besides the prediction itself.
struct ReportContext {
  std::string config_source;  ///< the config file
  std::string params_source;  ///< the parameter file
  const MachineParams* params = nullptr;  ///< the machine parameters used
  const RankMapping* mapping = nullptr;  ///< the rank mapping used
  /// When a strategy was asked for: its prediction, or why there is none.
  bool strategy_asked = false;
  /// the strategy's prediction, when there is one
  const StrategyPrediction* strategy_prediction = nullptr;
  std::string strategy_unavailable;  ///< why there is no strategy prediction, when there is none
};

/// How much a prediction report lists.
struct ReportOptions {
  int detail_rank = -1;     ///< rank whose messages are listed; -1: the critical rank
  bool all_ranks = false;   ///< also a one-line summary per rank
};

/// Lists the detail rank's messages, optionally every rank's summary, then the total as
/// "total lower bound: ... us".
void print_prediction(std::ostream& out, const ExchangePrediction& prediction,
                      const ReportContext& context, const ReportOptions& options);

/// "171.3 us = fixed 60.1 (measured) + pack 15.2 + mpi 80.0 + unpack 16.0": the phases in order.
std::string describe_phases(const StrategyPrediction& prediction);

/// Every rank with every message, the totals, the inputs (config, parameter file provenance,
/// mapping) and, when a strategy was asked for, "prediction" (null with
/// "prediction_unavailable_reason" when there is none). Times in seconds.
std::string prediction_to_json(const ExchangePrediction& prediction, const ReportContext& context);

}  // namespace haloflag::model
