#include "model_estimate.hpp"

#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/model/prediction.hpp"

namespace haloflag::bench {

namespace {

// The paper's parameter sets name the paper as their source; calibrated files name the tools.
bool from_the_paper(const model::Provenance& provenance) {
  return provenance.source.find("Elis et al.") != std::string::npos;
}

}  // namespace

ModelEstimate estimate_exchange(const halo::ExchangeConfig& config, const std::string& params_file,
                                model::TransportChoice transport) {
  ModelEstimate estimate;
  estimate.params_file = params_file;
  estimate.transport = transport;
  const model::MachineParams params = model::read_params_file(params_file);
  estimate.provenance = params.provenance;
  estimate.paper_machine = from_the_paper(params.provenance);
  if (!params.mapping) {
    estimate.unavailable_reason =
        "the parameter file has no rank mapping (haloflag_model takes --ranks-per-node for it)";
    return estimate;
  }
  estimate.mapping = params.mapping->describe();
  try {
    const model::ExchangePrediction prediction =
        model::predict_exchange(config, params, *params.mapping, transport);
    estimate.bound_seconds = prediction.bound;
    estimate.node_transport_used = prediction.node_transport_used;
    estimate.critical_rank = prediction.critical_rank;
    estimate.notes = prediction.notes;
  } catch (const model::ModelError& error) {
    estimate.unavailable_reason = error.what();
  }
  return estimate;
}

}  // namespace haloflag::bench
