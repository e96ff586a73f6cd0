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

ModelEstimate estimate_exchange(const halo::ExchangeConfig& config, const ParamsChoice& choice,
                                model::TransportChoice transport) {
  ModelEstimate estimate;
  estimate.params_file = choice.path;
  estimate.params_choice = choice;
  estimate.transport = transport;
  estimate.params = std::make_shared<const model::MachineParams>(model::read_params_file(choice.path));
  const model::MachineParams& params = *estimate.params;
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

RowPrediction predict_row(const ModelEstimate& model, const halo::ExchangeConfig& config,
                          halo::Strategy strategy, int mpi_links, int node_links,
                          int ranks_per_gpu, std::int64_t mpi_piece_bytes) {
  RowPrediction row;
  if (!model.params || !model.params->mapping) {
    row.unavailable_reason = "no rank mapping in the parameter file";
    return row;
  }
  if (!model.params->schedule) {
    row.unavailable_reason = "the parameter file has no schedule terms (scripts/calibrate_machine.sh)";
    return row;
  }
  const model::TransportChoice transport = node_links == 0  ? model::TransportChoice::mpi
                                           : mpi_links == 0 ? model::TransportChoice::node
                                                            : model::TransportChoice::automatic;
  try {
    row.prediction = model::predict_strategy(config, *model.params, *model.params->mapping,
                                             strategy, transport, ranks_per_gpu,
                                             mpi_piece_bytes);
  } catch (const model::ModelError& error) {
    row.unavailable_reason = error.what();
  }
  return row;
}

}  // namespace haloflag::bench
