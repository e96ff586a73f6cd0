// haloflag_calibrate_merge: a full parameter file from a ping-pong file, a concurrent-bandwidth
// file and a pack/unpack table (or a base parameter file whose other classes are kept), and
// optionally a node calibration file for the node transport's terms, and the per-strategy
// prediction's terms (a notify_latency report, the table's fused kernels, an exchange probe).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/params_file.hpp"
#include "calibration_files.hpp"
#include "merge.hpp"
#include "schedule_calibration.hpp"

using namespace haloflag::model;
using namespace haloflag::model::calibration;

int main(int argc, char** argv) {
  CLI::App app{"Writes a model parameter file (docs/model.md) from calibration results."};
  std::string pingpong_path;
  std::string concurrent_path;
  std::string table_path;
  std::string node_path;
  std::string base_path;
  std::string notify_path;
  std::string probe_path;
  std::string bulk_path;
  std::vector<std::string> grid_probe_paths;
  std::string target_name = "all";
  std::optional<int> ranks_per_node;
  std::optional<int> ranks_per_socket;
  std::optional<int> nodes;
  std::string machine;
  std::string out_path;
  app.add_option("--pingpong", pingpong_path, "haloflag_calibrate_pingpong output")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--concurrent", concurrent_path, "haloflag_calibrate_concurrent output")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--pack-unpack", table_path, "pack/unpack table (haloflag-pack-unpack-table)")
      ->check(CLI::ExistingFile);
  app.add_option("--node", node_path,
                 "haloflag_calibrate_node output: the node transport's terms (node_transport)")
      ->check(CLI::ExistingFile);
  app.add_option("--notify", notify_path,
                 "notify_latency report: launch, graph launch and flag terms of the prediction "
                 "(needs the pack/unpack table's fused kernels)")
      ->check(CLI::ExistingFile);
  app.add_option("--exchange-probe", probe_path,
                 "halo_bench report of tiny messages: each strategy's fixed cost (needs --notify)")
      ->check(CLI::ExistingFile);
  app.add_option("--node-grid-probe", grid_probe_paths,
                 "halo_bench reports over node at 2 or more sizes: the flag strategies' node "
                 "grid term (needs --exchange-probe)")
      ->check(CLI::ExistingFile);
  app.add_option("--bulk-exchange", bulk_path,
                 "haloflag_calibrate_bulk_exchange output: the MPI copy term (needs --notify)")
      ->check(CLI::ExistingFile);
  app.add_option("--base", base_path, "parameter file whose other classes are kept")
      ->check(CLI::ExistingFile);
  app.add_option("--class", target_name,
                 "link class measured: all, intra_socket, inter_socket or inter_node")->capture_default_str();
  app.add_option("--ranks-per-node", ranks_per_node, "mapping to record: ranks per node")
      ->check(CLI::PositiveNumber);
  app.add_option("--ranks-per-socket", ranks_per_socket, "mapping to record: ranks per socket")
      ->check(CLI::PositiveNumber);
  app.add_option("--nodes", nodes, "mapping to record: nodes")->check(CLI::PositiveNumber);
  app.add_option("--machine", machine, "machine name for the provenance (default: the host)");
  app.add_option("-o,--out", out_path, "parameter file to write")->required();
  CLI11_PARSE(app, argc, argv);

  try {
    MergeInputs inputs;
    inputs.target = parse_target_class(target_name);
    inputs.pingpong = read_pingpong_fit(pingpong_path);
    inputs.concurrent = read_concurrent_fit(concurrent_path);
    if (!table_path.empty()) {
      inputs.pack_unpack = read_pack_unpack_table_file(table_path);
      inputs.pack_unpack_source = table_path;
    }
    if (!node_path.empty()) inputs.node = read_node_fit(node_path);
    if (!base_path.empty()) {
      inputs.base = read_params_file(base_path);
      inputs.base_source = base_path;
    }
    if (ranks_per_node || ranks_per_socket) {
      if (!ranks_per_node || !ranks_per_socket) {
        throw std::invalid_argument("give both --ranks-per-node and --ranks-per-socket");
      }
      inputs.mapping = RankMapping::consecutive(*ranks_per_node, *ranks_per_socket, nodes);
    } else if (nodes) {
      throw std::invalid_argument("--nodes needs --ranks-per-node and --ranks-per-socket");
    }
    inputs.machine = machine;

    MachineParams params = merge_calibration(inputs);
    if (!notify_path.empty()) {
      if (!inputs.pack_unpack || !inputs.pack_unpack->fused) {
        throw std::invalid_argument("--notify needs a --pack-unpack table with the fused kernels "
                                    "(haloflag_calibrate_pack_unpack --halo-cubes)");
      }
      const LaunchFlagTerms terms = read_launch_flag_terms(notify_path);
      std::optional<ExchangeProbe> probe;
      if (!probe_path.empty()) probe = read_exchange_probe(probe_path);
      std::optional<PostalParams> mpi_copy;
      if (!bulk_path.empty()) {
        const BulkExchangeFit bulk = read_bulk_exchange_fit(bulk_path);
        mpi_copy = bulk.copy;
        params.provenance.notes.push_back("schedule: MPI copy from " + bulk.source);
        params.provenance.notes.insert(params.provenance.notes.end(), bulk.notes.begin(),
                                       bulk.notes.end());
      }
      add_schedule(params, terms, *inputs.pack_unpack->fused, mpi_copy, probe ? &*probe : nullptr,
                   params.provenance.notes);
      if (!grid_probe_paths.empty()) {
        if (!probe) throw std::invalid_argument("--node-grid-probe needs --exchange-probe");
        std::vector<ExchangeProbe> grid_probes;
        for (const std::string& path : grid_probe_paths) {
          grid_probes.push_back(read_exchange_probe(path));
        }
        add_node_grid(params, grid_probes, params.provenance.notes);
      }
    } else if (!probe_path.empty() || !bulk_path.empty() || !grid_probe_paths.empty()) {
      throw std::invalid_argument("--exchange-probe, --node-grid-probe and --bulk-exchange need "
                                  "--notify");
    }
    write_params_file(out_path, params);
    read_params_file(out_path);  // what was written must read back
    std::printf("wrote %s: threshold %lld B, intra_socket eager alpha %.3e s beta %.3e s/B, "
                "inter_node rendezvous alpha %.3e s R_Cb %.3e B/s R_Ci %.3e B/s\n",
                out_path.c_str(), static_cast<long long>(params.eager_threshold_bytes),
                params.intra_socket.eager.alpha, params.intra_socket.eager.beta,
                params.inter_node.rendezvous.alpha, params.inter_node.rendezvous.r_cb,
                params.inter_node.rendezvous.r_ci);
    if (params.node_transport) {
      std::printf("node_transport: copy latency %.3e s, copy bandwidth %.3e B/s, flag latency "
                  "%.3e s\n",
                  params.node_transport->copy_latency, params.node_transport->copy_bandwidth,
                  params.node_transport->flag_latency);
    }
    if (params.schedule) {
      std::printf("schedule: launch+sync %.2f us, graph %.2f us, flag %.2f us, %zu strategies "
                  "with a measured fixed cost\n",
                  params.schedule->launch_sync * 1e6, params.schedule->graph_launch_sync * 1e6,
                  params.schedule->host_flag * 1e6, params.schedule->fixed.size());
    }
    for (const std::string& note : params.provenance.notes) std::printf("note: %s\n", note.c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "haloflag_calibrate_merge: error: %s\n", error.what());
    return 1;
  }
  return 0;
}
