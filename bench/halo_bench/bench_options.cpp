#include "bench_options.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "haloflag/bench/build_info.hpp"
#include "haloflag/bench/option_values.hpp"
#include "haloflag/bench/shared_options.hpp"
#include "haloflag/halo/nccl_library.hpp"

namespace haloflag::bench {

namespace {

// CLI11's ExistingFile without its ":FILE" tag in the help (the type name says it already).
CLI::Validator existing_file() { return CLI::Validator(CLI::ExistingFile).description(""); }

std::vector<halo::Transport> parse_transport_list(const std::string& text) {
  std::vector<halo::Transport> transports;
  for (const std::string& name : split_list(text)) {
    try {
      const halo::Transport transport = halo::parse_transport(name);
      if (std::find(transports.begin(), transports.end(), transport) == transports.end()) {
        transports.push_back(transport);
      }
    } catch (const std::invalid_argument& error) {
      throw CLI::ValidationError("--transport", error.what());
    }
  }
  return transports;
}

// What --strategy can name and `all` runs: the library's own list, so the help cannot go stale
// when a strategy is added, then nccl.
std::vector<halo::Strategy> every_strategy() {
  std::vector<halo::Strategy> strategies(halo::all_strategies().begin(),
                                         halo::all_strategies().end());
  strategies.push_back(halo::Strategy::nccl);
  return strategies;
}

std::string strategy_names() {
  std::string names;
  for (const halo::Strategy strategy : every_strategy()) {
    if (!names.empty()) names += ", ";
    names += halo::to_string(strategy);
  }
  const halo::NcclLibrary nccl = halo::nccl_library();
  if (!nccl.built) names += " (nccl not in this build: " + nccl.note + ")";
  return names;
}

std::vector<halo::Strategy> parse_strategy_list(const std::string& text) {
  const std::vector<halo::Strategy> all = every_strategy();
  // A build without NCCL runs all the others; the heading says why nccl is not among them.
  if (text == "all") return all;
  std::vector<bool> chosen(all.size(), false);
  for (const std::string& name : split_list(text)) {
    try {
      const halo::Strategy strategy = halo::parse_strategy(name);
      if (strategy == halo::Strategy::embedded) {
        throw std::invalid_argument("'embedded' needs the caller's own kernel (docs/embedding.md), "
                                    "halo_bench has none: choose another strategy");
      }
      chosen[static_cast<std::size_t>(std::find(all.begin(), all.end(), strategy) - all.begin())] =
          true;
    } catch (const std::invalid_argument& error) {
      throw CLI::ValidationError("--strategy", std::string(error.what()) + " or 'all'");
    }
  }
  // every_strategy() order puts comb_fused, the baseline of the ratios, first.
  std::vector<halo::Strategy> strategies;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (chosen[i]) strategies.push_back(all[i]);
  }
  return strategies;
}

// An option that takes one of two words and is parsed once into `flag`: true for `yes`. The
// flag's value on entry is the default --help shows.
void add_either(CLI::App& app, const std::string& name, bool& flag, const std::string& yes,
                const std::string& no, const std::string& help) {
  app.add_option_function<std::string>(
         name, [&flag, yes](const std::string& value) { flag = value == yes; }, help)
      ->check(CLI::IsMember({yes, no}))
      ->default_str(flag ? yes : no);
}

}  // namespace

BenchOptions parse_bench_options(CLI::App& app, int argc, char** argv) {
  BenchOptions options;

  std::vector<std::int64_t> size;
  std::vector<int> divide;
  std::vector<int> periodic{1};
  std::vector<std::int64_t> ghost{1};
  GeometryArguments& geometry = options.geometry;

  auto* config = app.add_option("--config", options.config_path,
                                "communication config file (comb_configs/*.cfg); default: "
                                "comb_configs/comb_200_np2_reduced.cfg on 2 ranks, else the "
                                "geometry --size 200 for the number of ranks")
                     ->check(existing_file())
                     ->type_name("FILE");
  auto* size_option = app.add_option("--size", size, "Comb-style geometry: global cells")
                          ->delimiter(',')
                          ->expected(1, 3)
                          ->type_name("N|NX,NY,NZ")
                          ->excludes(config);
  app.add_option("--divide", divide, "rank grid (default: the most cubic for the rank count)")
      ->delimiter(',')
      ->expected(1, 3)
      ->type_name("P|PX,PY,PZ")
      ->needs(size_option);
  app.add_option("--periodic", periodic, "periodic axes, 0 or 1 each")
      ->delimiter(',')
      ->expected(1, 3)
      ->check(CLI::Range(0, 1).description(""))
      ->type_name("P|PX,PY,PZ")
      ->default_str("1")
      ->needs(size_option);
  app.add_option("--ghost", ghost, "ghost width in cells")
      ->delimiter(',')
      ->expected(1, 3)
      ->type_name("G|GX,GY,GZ")
      ->default_str("1")
      ->needs(size_option);
  add_count(app, "--vars", geometry.vars, "variables per cell", 1)->needs(size_option);
  app.add_option("--element-bytes", geometry.element_bytes,
                 "bytes per value: 8 (double) or 4 (float); any size from 1 to 16 is moved as "
                 "raw bytes. With --config, its messages are resized to it")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  app.add_flag("--faces-only", geometry.faces_only,
               "exchange with the 6 face neighbours only (default: all 26)")
      ->needs(size_option);

  app.add_option("--strategy", options.strategy_argument,
                 "strategy to run, a comma-separated list, or all (nccl only where it can run: a "
                 "build with NCCL, a GPU backend, one GPU per rank; the heading says why not); "
                 "names: " + strategy_names())
      ->type_name("NAME[,NAME...]|all")
      ->capture_default_str();
  add_backend_option(app, options.backend_name);
  add_count(app, "--warmup", options.warmup, "exchanges run before timing, not counted", 0);
  add_count(app, "--iterations", options.iterations, "timed exchanges per strategy", 1);
  add_count(app, "--rounds", options.rounds,
                 "run the strategies in rotation this many times, each time with a new Exchange "
                 "(its verified and warm-up exchanges) and its share of the timed exchanges, so "
                 "that a slow phase of the machine falls on every strategy alike (at most "
                 "--iterations rounds)", 1);
  add_count(app, "--verify", options.verify,
                 "verified exchanges before timing (one more always follows the timed ones)", 0);
  app.add_flag("--verify-each", options.verify_each,
               "verify every timed exchange as well (fill, upload, download and check stay "
               "outside the timed interval)");
  add_count(app, "--drift-window", options.drift_window,
                 "drift: median of the first and of the last N timed exchanges, reported when "
                 "there are at least 2N",
                 1)
      ->type_name("N");
  app.add_option("--progress", options.progress_seconds,
                 "a progress line on stderr every this many seconds of a strategy's timed "
                 "exchanges (0: none)")
      ->check(CLI::Range(0.0, 86400.0).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
  add_timeout_option(app, options.timeout_seconds,
                     "deadline in seconds of every wait inside an exchange");
  app.add_option("--idle-exit", options.idle_exit,
                 "resident: microseconds without an exchange after which the kernels leave the "
                 "GPU and the next start launches them again, never (they stay), or default")
      ->check([](const std::string& value) -> std::string {
        if (value == "never" || value == "default") return {};
        try {
          if (std::stod(value) >= 1.0) return {};
        } catch (const std::exception&) {
        }
        return "--idle-exit takes microseconds (at least 1), never or default, not " + value;
      })
      ->type_name("US|never|default")
      ->capture_default_str();
  app.add_option("--idle-gap", options.idle_gap_us,
                 "microseconds of pause before each timed exchange, outside its timed interval: "
                 "with a gap longer than --idle-exit every resident exchange launches its kernels "
                 "again, which measures what that costs")
      ->check(CLI::Range(0.0, 1e7).description(""))
      ->type_name("US")
      ->capture_default_str();
  add_count(app, "--trace-exchanges", options.trace_exchanges,
                 "exchanges of a separate traced pass per strategy, for the phase breakdown "
                 "(0: none)", 0);
  app.add_option("--trace", options.trace_path,
                 "write the traced exchanges as a Chrome trace-event file (Perfetto)")
      ->type_name("FILE");
  add_count(app, "--trace-kept", options.trace_kept,
                 "traced exchanges per strategy and rank written to the --trace file", 1);
  add_json_option(app, options.json_path, "JSON report file; '' for none");
  app.add_option("--params", options.params_path,
                 "model parameter file (default: this machine's calibration, else the paper's)")
      ->check(existing_file())
      ->type_name("FILE");
  add_gpu_option(app, options.gpu);

  kernels::LaunchSettings& launch = options.advanced.launch;
  add_count(app, "--fused-threads", launch.fused_threads, "threads per block, fused kernels", 1);
  add_count(app, "--message-threads", launch.message_threads,
                 "threads of the one block per message (stream kernels)", 1);
  add_count(app, "--stacked-threads", launch.stacked_threads,
                 "threads per block of the stacked cooperative kernel", 1);
  add_count(app, "--stacked-blocks", launch.stacked_blocks,
                 "blocks of the stacked kernel; 0: as many as can be resident", 0);
  app.add_option("--long-receive-blocks", launch.long_receive_blocks,
                 "stream_notify and resident on a GPU: blocks that unpack each long receive "
                 "together")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  app.add_option("--long-send-blocks", launch.long_send_blocks,
                 "stream_notify and resident on a GPU: blocks that pack each long send together "
                 "(with --long-sends in-turn, all of them pack every long send in turn)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--node-threads", launch.node_threads,
                 "node transport: threads per block of the node grid")
      ->check(CLI::Range(32, 1024))
      ->capture_default_str();
  add_count(app, "--node-blocks", launch.node_blocks,
                 "node transport: blocks of the node grid; 0: one per piece, as many as fit "
                 "(resident: in half the room; a count may take all of it)", 0);
  add_count(app, "--piece-bytes", launch.node_piece_bytes,
                 "node transport: bytes of a piece, the node grid's unit of work", 8);
  add_count(app, "--host-threads", launch.host_threads,
                 "host backend: threads per lane and blocks of the stacked grid", 1);
  add_count(app, "--long-message-bytes", options.advanced.long_message_bytes,
                 "flag strategies: messages of at least this size are long (packed after the "
                 "short ones, by the whole grid in stacked_notify, received on arrival); 0: half "
                 "the largest message", 0);
  add_either(app, "--long-receives", options.advanced.long_receives_on_arrival, "on-arrival",
             "posted-first",
             "flag strategies: on-arrival posts each long receive once its message has "
             "arrived and every send is posted (between sends with --long-sends in-turn); "
             "posted-first posts every receive at start() (the paper's Fig. 5)");
  add_either(app, "--long-sends", options.advanced.long_sends_in_turn, "in-turn", "together",
             "flag strategies: in-turn packs the long sends one after another by their "
             "blocks together and tests receives between sends; together packs each by its "
             "own block at once (stacked_notify always packs them in turn)");
  // Not "--tune": Open MPI's mpiexec takes that word for its own, wherever it stands.
  add_either(app, "--tuning", options.tune, "auto", "fixed",
             "auto also runs each flag strategy with its order of work tuned at set-up "
             "(halo::tune: --long-receives, --long-sends, --long-receive-blocks "
             "and --mpi-piece-bytes timed on this machine and transport, the fastest kept), "
             "beside the fixed one");
  app.add_option("--transport", options.transport_argument,
                 "path of each peer's messages, a comma-separated list run in rotation with the "
                 "strategies: auto (node for peers on this rank's node, mpi for the others), mpi "
                 "(every peer), node (every peer; an error if one is off the node), nccl "
                 "(every peer over NCCL: only with --strategy nccl)")
      ->capture_default_str();
  add_node_size_option(app, options.node_size,
                       "node transport: ranks per node, consecutive ranks splitting one host "
                       "into several nodes (sets HALOFLAG_NODE_SIZE); 0: each shared-memory node "
                       "whole; default: HALOFLAG_NODE_SIZE, else 0");
  app.add_option_function<std::string>(
         "--node-mapping",
         [&options](const std::string& value) {
           options.advanced.node_mapping = halo::parse_node_mapping(value);
         },
         "node transport: auto puts each receive in its rank's device memory shared by "
         "IPC where the sender can open it; host forces the fallback, host memory both "
         "ranks map, registered as pinned")
      ->check(CLI::IsMember({"auto", "host"}))
      ->default_str("auto");
  app.add_option_function<std::string>(
         "--node-placement",
         [&options](const std::string& value) {
           options.advanced.node_placement = halo::parse_node_placement(value);
         },
         "node transport, where the sender maps the receiver's fields: by-shape sends the "
         "messages whose receiver's rows are under 64 bytes (x faces) through the receiver's "
         "buffer from --node-buffered-from-bytes on, and the others straight into its ghost "
         "cells; direct places every message; buffered none")
      ->check(CLI::IsMember({"by-shape", "direct", "buffered"}))
      ->default_str("by-shape");
  add_count(app, "--node-buffered-from-bytes", options.advanced.node_buffered_from_bytes,
                 "--node-placement by-shape: the smallest short-row message that goes through "
                 "the receiver's buffer", 0);
  add_count(app, "--node-lines-up-to-bytes", options.advanced.node_lines_up_to_bytes,
                 "node transport, strategies whose kernels move pieces: a peer whose messages to "
                 "a rank hold at most this many bytes an exchange (every element a multiple of "
                 "4 bytes) sends them in lines, flagged words that are their own signal; 0: never",
                 0);
  add_either(app, "--mpi-requests", options.advanced.persistent_requests, "persistent", "per-exchange",
             "MPI peers: persistent makes persistent requests once and starts them each "
             "exchange (MPI_Start); per-exchange posts MPI_Isend/MPI_Irecv each exchange");
  add_count(app, "--mpi-piece-bytes", options.advanced.mpi_piece_bytes,
                 "flag strategies, MPI peers: each longer message goes in pieces of at most "
                 "this many bytes, each sent as soon as it is packed and unpacked as soon as it "
                 "lands; 0: whole messages", 0);
  app.add_option_function<std::string>(
         "--piece-transfer",
         [&options](const std::string& value) {
           options.advanced.piece_transfer = halo::parse_piece_transfer(value);
         },
         "how the MPI pieces travel: partitioned (MPI 4 partitioned communication), p2p "
         "(a request per piece), auto (partitioned where the MPI library has it)")
      ->check(CLI::IsMember({"auto", "partitioned", "p2p"}))
      ->default_str("auto");
  app.add_option("--poll-backoff-ns", options.poll_backoff_ns,
                 "pause of a GPU thread between two polls of a flag in pinned host memory")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();

  app.parse(argc, argv);

  options.geometry_given = !size.empty();
  options.element_bytes_given = app.count("--element-bytes") > 0;
  if (options.geometry_given) {
    geometry.size = as_triple(size, "--size");
    if (!divide.empty()) geometry.divide = as_triple(divide, "--divide");
    const std::array<int, 3> periodic_axes = as_triple(periodic, "--periodic");
    for (int axis = 0; axis < 3; ++axis) geometry.periodic[axis] = periodic_axes[axis] == 1;
    geometry.ghost = as_triple(ghost, "--ghost");
  }
  options.strategies = parse_strategy_list(options.strategy_argument);
  options.transports = parse_transport_list(options.transport_argument);
  // A round times at least one exchange.
  options.rounds = std::min(options.rounds, options.iterations);
  apply_node_size(app, options.node_size);
  return options;
}

}  // namespace haloflag::bench
