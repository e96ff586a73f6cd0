#include "jacobi_options.hpp"

#include <array>
#include <cstddef>
#include <exception>
#include <string>

#include "haloflag/bench/option_values.hpp"
#include "haloflag/bench/shared_options.hpp"
#include "haloflag/examples/gpu_threads.hpp"
#include "haloflag/examples/stencil_options.hpp"

namespace jacobi3d {

namespace {

using haloflag::bench::add_count;
namespace hb = haloflag::bench;
namespace hx = haloflag::examples;

// A comma-separated list of variant names, "both" (conventional and resident, as before the
// other variants existed) or "all"; the result is in VariantKind order, each variant once.
std::vector<VariantKind> parse_variant_list(const std::string& text) {
  constexpr std::array kinds{VariantKind::conventional, VariantKind::conventional_overlap,
                             VariantKind::resident, VariantKind::stream};
  return hx::parse_variant_list(
      text, kinds,
      "conventional, conventional_overlap, resident, stream, both or all, comma-separated",
      [](const std::string& name, VariantKind kind) {
        return name == "both" &&
               (kind == VariantKind::conventional || kind == VariantKind::resident);
      });
}

// --gpu-threads: the block size the GPU side takes (haloflag/examples/gpu_threads.hpp).
CLI::Validator gpu_threads_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          std::size_t end = 0;
          const long value = std::stol(text, &end);
          if (end == text.size() && hx::valid_gpu_threads(value)) return {};
        } catch (const std::exception&) {
          // reported below
        }
        return "must be a multiple of 32 in [32, 1024], got '" + text + "'";
      },
      "32..1024");
}

}  // namespace

JacobiOptions parse_jacobi_options(CLI::App& app, int argc, char** argv) {
  JacobiOptions options;
  int stencil_points = 7;
  std::string precision_name(to_string(Precision::float64));
  std::vector<std::int64_t> size;
  std::vector<std::int64_t> local;

  app.add_option("--variant", options.variant_argument,
                 "conventional: a kernel launch and a comb_fused exchange per iteration; "
                 "conventional_overlap: the boundary layer first on a high-priority stream, then "
                 "a comb_graph exchange while the interior updates on a second stream; "
                 "resident: one kernel for all iterations with the exchange embedded; "
                 "stream: a kernel launch and a resident exchange per iteration, ordered on one "
                 "stream; a comma-separated list, both (conventional,resident) or all")
      ->type_name("NAME[,NAME...]|both|all")
      ->capture_default_str();
  app.add_option("--stencil", stencil_points,
                 "7: the 6 face neighbours (6 messages); 27: the whole 3x3x3 cube (26 messages)")
      ->check(CLI::IsMember({7, 27}).description(""))
      ->type_name("7|27")
      ->capture_default_str();
  hb::add_choice(app, "--precision", precision_name, {"float", "double"},
                 "element type of the field, its update and its halo messages");
  auto* size_option = app.add_option("--size", size, "global cells (strong scaling)")
                          ->delimiter(',')
                          ->expected(1, 3)
                          ->type_name("N|X,Y,Z");
  app.add_option("--local", local, "cells per rank (weak scaling); default 32,32,32")
      ->delimiter(',')
      ->expected(1, 3)
      ->type_name("N|X,Y,Z")
      ->excludes(size_option);
  add_count(app, "--iterations", options.iterations, "Jacobi iterations per timed run", 1);
  add_count(app, "--warmup", options.warmup, "untimed runs of --iterations before timing", 0);
  add_count(app, "--repeats", options.repeats,
                 "timed runs per variant (median, p10, p90 are over these)", 1);
  hb::add_backend_option(app, options.backend_name);
  hb::add_gpu_option(app, options.gpu);
  app.add_flag("--check", options.check,
               "before timing, run --iterations from the initial field and compare the result "
               "bit for bit with a single-rank reference computed on rank 0 in the same "
               "precision");
  hb::add_json_option(app, options.json_path, "JSON report file");
  hb::add_timeout_option(app, options.timeout_seconds,
                         "deadline in seconds of every wait (exchange and resident kernel)");
  app.add_option("--gpu-threads", options.gpu_threads,
                 "threads per block of the GPU kernels (a multiple of 32, at most 1024)")
      ->check(gpu_threads_check())
      ->capture_default_str();
  add_count(app, "--resident-blocks", options.resident_blocks,
                 "blocks of the resident cooperative grid; 0: by the cells per rank, whole "
                 "rounds of a block per multiprocessor up to 32 cells per thread, within what "
                 "fits at once (shared among the ranks bound to one GPU)", 0);
  add_count(app, "--node-blocks", options.node_blocks,
            "blocks of the node transport's piece grid; 0: one per piece, as many as fit (a "
            "resident grid: half the room the exchange's other kernels leave)", 0);
  hx::add_node_piece_bytes_option(app, options.node_piece_bytes);
  app.add_flag("--next-exchange,!--no-next-exchange", options.next_exchange_told,
               "resident: each exchange's finish tells the node peers where the next one goes "
               "(kernels::NextExchange); --no-next-exchange: each exchange announces its fields "
               "at its start")
      ->capture_default_str();
  hx::add_sends_update_option(app, options.sends_update,
                              "on where the interior is taken from a counter "
                              "(--interior-by-counter), else up to 64 cells per thread of the "
                              "grid");
  app.add_flag("--interior-by-counter,!--no-interior-by-counter", options.interior_by_counter,
               "resident: each block sweeps the interior's column runs dealt to it, then takes "
               "the last two rounds' from a counter, so that blocks that sent pieces first take "
               "fewer; --no-interior-by-counter: every run dealt out by block")
      ->capture_default_str();
  hx::add_transport_option(
      app, options.transport,
      "path of each peer's ghost cells: auto (node for peers on this rank's node, mpi for the "
      "others), mpi or node");
  add_count(app, "--node-lines-up-to-bytes", options.node_lines_up_to_bytes,
                 "node transport: a peer whose messages hold at most this many bytes an exchange "
                 "sends them in lines (docs/transports.md); 0: never", 0);
  hb::add_node_size_option(app, options.node_size,
                           "ranks per node for the node transport (sets HALOFLAG_NODE_SIZE); 0: "
                           "each shared-memory node whole; default: HALOFLAG_NODE_SIZE, else 0");
  hb::add_choice(app, "--progress", options.progress, {"caller", "thread"},
                 "stream variant: who runs the CPU side of its MPI peers' messages while the "
                 "stream runs; thread: the exchange's progress thread; caller: the run's thread");
  hb::add_choice(app, "--conventional-strategy", options.conventional_strategy,
                 {"auto", "comb_fused", "comb_graph"},
                 "exchange of the conventional variants; auto: comb_fused for conventional, "
                 "comb_graph (its kernels replayed as graphs) for conventional_overlap; "
                 "comb_fused or comb_graph: that one for both");
  app.add_flag("!--no-update-rate", options.update_rate,
               "skip the update-rate report (after the timed runs, each variant's update "
               "kernels timed alone, and the device's copy rate measured before the variants "
               "are set up)");
  hx::add_host_threads_option(app, options.host_team_threads);

  app.parse(argc, argv);

  options.stencil = stencil_from_points(stencil_points);
  options.precision = precision_from_name(precision_name);
  if (!size.empty()) {
    options.size_kind = SizeKind::global;
    options.size = hb::as_triple(size, "--size");
  } else if (!local.empty()) {
    options.size = hb::as_triple(local, "--local");
  }
  options.variants = parse_variant_list(options.variant_argument);
  hb::apply_node_size(app, options.node_size);
  return options;
}

}  // namespace jacobi3d
