// haloflag_model: the predicted lower bound of one halo exchange (paper Eq. 1-4) for a
// communication config and a machine parameter file, on MPI or with the node transport within a
// node, and with --strategy the prediction of that strategy's time; a human table, optionally
// JSON.
#include <CLI/CLI.hpp>

#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/model/prediction.hpp"
#include "haloflag/model/prediction_report.hpp"
#include "haloflag/model/strategy_prediction.hpp"
#include "haloflag/model/transport.hpp"

namespace {

using haloflag::model::MachineParams;
using haloflag::model::RankMapping;

struct MappingOptions {
  std::optional<int> ranks_per_node;
  std::optional<int> ranks_per_socket;
  std::optional<int> nodes;
};

// The parameter file's mapping, with whatever the command line overrides. A ranks-per-node
// given alone keeps the file's ranks-per-socket when it divides it, else one socket per node.
RankMapping choose_mapping(const MachineParams& params, const MappingOptions& options) {
  const bool overridden = options.ranks_per_node || options.ranks_per_socket || options.nodes;
  if (!overridden) {
    if (!params.mapping) {
      throw std::runtime_error(
          "no rank mapping: the parameter file has no \"mapping\"; give --ranks-per-node and "
          "--ranks-per-socket");
    }
    return *params.mapping;
  }
  const bool file_consecutive =
      params.mapping && params.mapping->placement() == RankMapping::Placement::consecutive;
  const int per_node = options.ranks_per_node.value_or(
      file_consecutive ? params.mapping->ranks_per_node() : options.ranks_per_socket.value_or(1));
  int per_socket = per_node;
  if (options.ranks_per_socket) {
    per_socket = *options.ranks_per_socket;
  } else if (file_consecutive && params.mapping->ranks_per_socket() <= per_node &&
             per_node % params.mapping->ranks_per_socket() == 0) {
    per_socket = params.mapping->ranks_per_socket();
  }
  std::optional<int> nodes = options.nodes;
  if (!nodes && file_consecutive && !options.ranks_per_node) nodes = params.mapping->nodes();
  return RankMapping::consecutive(per_node, per_socket, nodes);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Predicts the lower bound SP + max T_comm + LUP of one halo exchange (Elis et al. 2024, "
      "Eq. 1-4: postal model within a socket, K-model across sockets and nodes)."};
  std::string config_path;
  std::string params_path;
  std::string json_path;
  MappingOptions mapping_options;
  int detail_rank = -1;
  bool all_ranks = false;
  std::string transport_name = "mpi";
  std::string strategy_name;
  int ranks_per_gpu = 1;
  app.add_option("config", config_path, "communication config (haloflag-comb-config)")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("-p,--params", params_path, "machine parameter file (JSON, docs/model.md)")
      ->required();
  app.add_option("--ranks-per-node", mapping_options.ranks_per_node,
                 "consecutive placement: ranks per node (overrides the file's mapping)")
      ->check(CLI::PositiveNumber);
  app.add_option("--ranks-per-socket", mapping_options.ranks_per_socket,
                 "consecutive placement: ranks per socket")
      ->check(CLI::PositiveNumber);
  app.add_option("--nodes", mapping_options.nodes, "number of nodes (the config must fit)")
      ->check(CLI::PositiveNumber);
  app.add_option("--rank", detail_rank, "list the messages of this rank (default: critical rank)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--all-ranks", all_ranks, "also print one summary line per rank");
  app.add_option("--transport", transport_name,
                 "mpi: every message on MPI (the paper's model); node: messages within a node on "
                 "the node transport (needs the file's node_transport); auto: node when the file "
                 "has it, else mpi")
      ->check(CLI::IsMember({"mpi", "node", "auto"}))
      ->capture_default_str();
  app.add_option("--strategy", strategy_name,
                 "also predict this strategy's exchange time (needs the file's schedule terms)");
  app.add_option("--ranks-per-gpu", ranks_per_gpu,
                 "ranks sharing one GPU in the run predicted (they share its bandwidth)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--json", json_path, "also write the full prediction as JSON to this file");
  CLI11_PARSE(app, argc, argv);

  try {
    const MachineParams params = haloflag::model::read_params_file(params_path);
    const auto transport = haloflag::model::parse_transport_choice(transport_name);
    if (transport == haloflag::model::TransportChoice::node) {
      haloflag::model::require_node_transport(params, params_path);
    }
    const haloflag::halo::ExchangeConfig config = haloflag::halo::read_config_file(config_path);
    const RankMapping mapping = choose_mapping(params, mapping_options);
    const haloflag::model::ExchangePrediction prediction =
        haloflag::model::predict_exchange(config, params, mapping, transport);

    haloflag::model::ReportContext context;
    context.config_source = config_path;
    context.params_source = params_path;
    context.params = &params;
    context.mapping = &mapping;
    std::optional<haloflag::model::StrategyPrediction> strategy_prediction;
    if (!strategy_name.empty()) {
      const haloflag::halo::Strategy strategy = haloflag::halo::parse_strategy(strategy_name);
      context.strategy_asked = true;
      if (params.schedule) {
        strategy_prediction = haloflag::model::predict_strategy(config, params, mapping, strategy,
                                                                transport, ranks_per_gpu);
        context.strategy_prediction = &*strategy_prediction;
      } else {
        context.strategy_unavailable = params_path + ": schedule: missing (the prediction's "
                                       "terms; scripts/calibrate_machine.sh measures them)";
      }
    }
    haloflag::model::print_prediction(std::cout, prediction, context, {detail_rank, all_ranks});
    if (!json_path.empty()) {
      std::ofstream out(json_path, std::ios::trunc);
      out << haloflag::model::prediction_to_json(prediction, context);
      out.close();
      if (!out) throw std::runtime_error(json_path + ": cannot write");
      std::cout << "wrote " << json_path << '\n';
    }
  } catch (const std::exception& error) {
    std::cerr << "haloflag_model: error: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
