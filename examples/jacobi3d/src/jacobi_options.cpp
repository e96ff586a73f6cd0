#include "jacobi_options.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>

#include "haloflag/bench/integer_validator.hpp"

namespace jacobi3d {

namespace {

using haloflag::bench::at_least;

// N means N,N,N; anything but one or three values is refused.
haloflag::halo::Index3 as_triple(const std::vector<std::int64_t>& values,
                                 const std::string& option) {
  if (values.size() == 1) return {values[0], values[0], values[0]};
  if (values.size() == 3) return {values[0], values[1], values[2]};
  throw CLI::ValidationError(option, "takes N or X,Y,Z, got " + std::to_string(values.size()) +
                                         " values");
}

// A comma-separated list of variant names, "both" (conventional and resident, as before the
// other variants existed) or "all"; the result is in VariantKind order, each variant once.
std::vector<VariantKind> parse_variant_list(const std::string& text) {
  constexpr std::array kinds{VariantKind::conventional, VariantKind::conventional_overlap,
                             VariantKind::resident, VariantKind::stream};
  std::array<bool, kinds.size()> chosen{};
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string name = text.substr(begin, end - begin);
    bool known = false;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      const bool named = name == to_string(kinds[k]) || name == "all" ||
                         (name == "both" && (kinds[k] == VariantKind::conventional ||
                                             kinds[k] == VariantKind::resident));
      chosen[k] = chosen[k] || named;
      known = known || named;
    }
    if (!known) {
      throw CLI::ValidationError("--variant", "unknown variant '" + name +
                                                  "' (expected conventional, "
                                                  "conventional_overlap, resident, stream, both "
                                                  "or all, comma-separated)");
    }
    begin = end + 1;
  }
  std::vector<VariantKind> variants;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (chosen[k]) variants.push_back(kinds[k]);
  }
  return variants;
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
  app.add_option("--precision", precision_name,
                 "element type of the field, its update and its halo messages")
      ->check(CLI::IsMember({"float", "double"}).description(""))
      ->type_name("float|double")
      ->capture_default_str();
  auto* size_option = app.add_option("--size", size, "global cells (strong scaling)")
                          ->delimiter(',')
                          ->expected(1, 3)
                          ->type_name("N|X,Y,Z");
  app.add_option("--local", local, "cells per rank (weak scaling); default 32,32,32")
      ->delimiter(',')
      ->expected(1, 3)
      ->type_name("N|X,Y,Z")
      ->excludes(size_option);
  app.add_option("--iterations", options.iterations, "Jacobi iterations per timed run")
      ->check(at_least(1))
      ->capture_default_str();
  app.add_option("--warmup", options.warmup, "untimed runs of --iterations before timing")
      ->check(at_least(0))
      ->capture_default_str();
  app.add_option("--repeats", options.repeats,
                 "timed runs per variant (median, p10, p90 are over these)")
      ->check(at_least(1))
      ->capture_default_str();
  app.add_option("--backend", options.backend_name, "where the kernels run; auto: the best present")
      ->check(CLI::IsMember({"auto", "host", "cuda", "hip"}).description(""))
      ->type_name("auto|host|cuda|hip")
      ->capture_default_str();
  app.add_option("--gpu", options.gpu, "GPU index for every rank (default: node-local rank)")
      ->type_name("N")
      ->check(at_least(0));
  app.add_flag("--check", options.check,
               "before timing, run --iterations from the initial field and compare the result "
               "bit for bit with a single-rank reference computed on rank 0 in the same "
               "precision");
  app.add_option("--json", options.json_path, "JSON report file")->type_name("FILE");
  app.add_option("--timeout", options.timeout_seconds,
                 "deadline in seconds of every wait (exchange and resident kernel)")
      ->check(CLI::Range(1e-3, 86400.0).description(""))
      ->type_name("SECONDS")
      ->capture_default_str();
  app.add_option("--gpu-threads", options.gpu_threads,
                 "threads per block of the GPU kernels (a multiple of 32, at most 1024)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              std::size_t end = 0;
              const long value = std::stol(text, &end);
              if (end == text.size() && value >= 32 && value <= 1024 && value % 32 == 0) {
                return {};
              }
            } catch (const std::exception&) {
              // reported below
            }
            return "must be a multiple of 32 in [32, 1024], got '" + text + "'";
          },
          "32..1024"))
      ->capture_default_str();
  app.add_option("--resident-blocks", options.resident_blocks,
                 "blocks of the resident cooperative grid; 0: as many as fit at once (the "
                 "occupancy API's blocks per multiprocessor x multiprocessors, shared among the "
                 "ranks bound to one GPU)")
      ->check(at_least(0))
      ->capture_default_str();
  app.add_option("--transport", options.transport,
                 "path of each peer's ghost cells: auto (node for peers on this rank's node, mpi "
                 "for the others), mpi or node")
      ->check(CLI::IsMember({"auto", "mpi", "node"}))
      ->capture_default_str();
  app.add_option("--node-lines-up-to-bytes", options.node_lines_up_to_bytes,
                 "node transport: a peer whose messages hold at most this many bytes an exchange "
                 "sends them in lines (docs/transports.md); 0: never")
      ->check(at_least(0))
      ->capture_default_str();
  app.add_option("--node-size", options.node_size,
                 "ranks per node for the node transport (sets HALOFLAG_NODE_SIZE); 0: each "
                 "shared-memory node whole; default: HALOFLAG_NODE_SIZE, else 0")
      ->check(at_least(0));
  app.add_option("--progress", options.progress,
                 "stream variant: who runs the CPU side of its MPI peers' messages while the "
                 "stream runs; thread: the exchange's progress thread; caller: the run's thread")
      ->check(CLI::IsMember({"caller", "thread"}).description(""))
      ->type_name("caller|thread")
      ->capture_default_str();
  app.add_option("--conventional-strategy", options.conventional_strategy,
                 "exchange of the conventional variants; auto: comb_fused for conventional, "
                 "comb_graph (its kernels replayed as graphs) for conventional_overlap; "
                 "comb_fused or comb_graph: that one for both")
      ->check(CLI::IsMember({"auto", "comb_fused", "comb_graph"}).description(""))
      ->type_name("auto|comb_fused|comb_graph")
      ->capture_default_str();
  app.add_flag("!--no-update-rate", options.update_rate,
               "skip the update-rate report (after the timed runs, each variant's update "
               "kernels timed alone, and the device's copy rate measured before the variants "
               "are set up)");
  app.add_option("--host-threads", options.host_team_threads,
                 "host backend: CPU threads that play the resident kernel's grid")
      ->check(at_least(1))
      ->capture_default_str();

  app.parse(argc, argv);

  options.stencil = stencil_from_points(stencil_points);
  options.precision = precision_from_name(precision_name);
  if (!size.empty()) {
    options.size_kind = SizeKind::global;
    options.size = as_triple(size, "--size");
  } else if (!local.empty()) {
    options.size = as_triple(local, "--local");
  }
  options.variants = parse_variant_list(options.variant_argument);
  // The library splits nodes by HALOFLAG_NODE_SIZE; --node-size sets it, else it is reported.
  if (app.count("--node-size") > 0) {
    setenv("HALOFLAG_NODE_SIZE", std::to_string(options.node_size).c_str(), 1);
  } else if (const char* from_environment = std::getenv("HALOFLAG_NODE_SIZE");
             from_environment != nullptr) {
    options.node_size = std::atoi(from_environment);
  }
  return options;
}

}  // namespace jacobi3d
