#include "options.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "haloflag/bench/shared_options.hpp"
#include "haloflag/examples/stencil_options.hpp"

namespace jacobi2d {

namespace {

using haloflag::bench::add_count;
namespace hb = haloflag::bench;

constexpr std::array kPeerOptions{"-nx", "-ny", "-niter", "-nccheck", "-csv"};

// A comma-separated list of variant names or "all", in VariantKind order, each once.
std::vector<VariantKind> parse_variant_list(const std::string& text) {
  constexpr std::array kinds{VariantKind::conventional_overlap, VariantKind::stream,
                             VariantKind::resident};
  return haloflag::examples::parse_variant_list(
      text, kinds, "conventional_overlap, stream, resident or all, comma-separated");
}

}  // namespace

std::vector<std::string> translate_peer_options(int argc, char** argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  for (std::size_t a = 1; a < arguments.size(); ++a) {
    const std::string& argument = arguments[a];
    if (std::find(kPeerOptions.begin(), kPeerOptions.end(), std::string_view(argument)) !=
        kPeerOptions.end()) {
      arguments[a] = "-" + argument;
    }
  }
  return arguments;
}

Options parse_options(CLI::App& app, int argc, char** argv) {
  Options options;
  std::string precision_name(to_string(Precision::float32));
  app.add_option("--nx,-x", options.nx, "global columns, the two fixed ones included (-nx)")
      ->check(CLI::Range(std::int64_t{3}, std::int64_t{1} << 40).description(""))
      ->capture_default_str();
  app.add_option("--ny,-y", options.ny, "global rows, the two wrap-around ones included (-ny)")
      ->check(CLI::Range(std::int64_t{3}, std::int64_t{1} << 40).description(""))
      ->capture_default_str();
  add_count(app, "--niter", options.niter, "iterations per run (-niter)", 1);
  add_count(app, "--nccheck", options.nccheck,
                 "the L2 norm of the change every this many iterations (-nccheck)", 1);
  app.add_flag("--csv", options.csv,
               "print only a CSV line per variant: variant, nx, ny, iter_max, nccheck, "
               "num_devices, 1, runtime, runtime_serial (seconds; -csv)");
  app.add_option("--variant", options.variant_argument,
                 "conventional_overlap: boundary rows first, a Comb-style exchange while the "
                 "interior updates; stream: haloflag's stream-ordered exchange; resident: the "
                 "whole exchange from the example's own kernel; a comma-separated list or all")
      ->type_name("NAME[,NAME...]|all")
      ->capture_default_str();
  hb::add_choice(app, "--precision", precision_name, {"float", "double"},
                 "element type of the field");
  add_count(app, "--warmup", options.warmup, "untimed runs of -niter before timing", 0);
  add_count(app, "--repeats", options.repeats, "timed runs per variant (median, p10, p90)", 1);
  hb::add_backend_option(app, options.backend_name);
  hb::add_gpu_option(app, options.gpu);
  hb::add_json_option(app, options.json_path, "JSON report file");
  hb::add_timeout_option(app, options.timeout_seconds, "deadline in seconds of every wait");
  app.add_option("--gpu-threads", options.gpu_threads,
                 "threads per block of the GPU kernels (a multiple of 32, at most 1024)")
      ->check(CLI::Range(32, 1024).description(""))
      ->capture_default_str();
  add_count(app, "--resident-blocks", options.resident_blocks,
                 "blocks of the resident cooperative grid; 0: by the cells per rank, whole "
                 "rounds of a block per multiprocessor up to 32 cells per thread, within what "
                 "fits at once", 0);
  add_count(app, "--node-blocks", options.node_blocks,
            "blocks of the node transport's piece grid; 0: one per piece, as many as fit (a "
            "resident grid: half the room the exchange's other kernels leave)", 0);
  haloflag::examples::add_node_piece_bytes_option(app, options.node_piece_bytes);
  haloflag::examples::add_sends_update_option(app, options.sends_update,
                                              "on up to 64 cells per thread of the grid, on a "
                                              "rank of two rows or more");
  app.add_flag("--next-exchange,!--no-next-exchange", options.next_exchange_told,
               "resident: each exchange's finish tells the node peers where the next one goes "
               "(kernels::NextExchange); --no-next-exchange: each exchange announces its fields "
               "at its start")
      ->capture_default_str();
  haloflag::examples::add_transport_option(
      app, options.transport,
      "path of each peer's ghost rows: auto (node for peers on this rank's node, mpi for the "
      "others), mpi or node");
  app.add_option("--progress", options.progress,
                 "stream variant: who runs the CPU side of its MPI peers' messages; thread: the "
                 "exchange's progress thread; caller: the run's thread")
      ->check(CLI::IsMember({"caller", "thread"}).description(""))
      ->capture_default_str();
  app.add_option("--conventional-strategy", options.conventional_strategy,
                 "the conventional loop's exchange: comb_graph (its pack and unpack kernels "
                 "replayed as CUDA graphs) or comb_fused")
      ->check(CLI::IsMember({"comb_fused", "comb_graph"}).description(""))
      ->capture_default_str();
  haloflag::examples::add_host_threads_option(app, options.host_team_threads);

  app.parse(argc, argv);
  options.precision = precision_from_name(precision_name);
  options.variants = parse_variant_list(options.variant_argument);
  return options;
}

}  // namespace jacobi2d
