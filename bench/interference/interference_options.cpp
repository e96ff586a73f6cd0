#include "interference_options.hpp"

#include <stdexcept>

#include "haloflag/bench/shared_options.hpp"

namespace haloflag::bench::interference {

namespace {

// Largest message: MPI_Send counts bytes in an int.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 30;

// A byte count with an optional unit: 4096, 4KiB, 64MiB (k, m, g = 1000^n; ki, mi, gi = 1024^n).
CLI::Option* add_bytes(CLI::App& app, const std::string& name, std::uint64_t& value,
                       const std::string& help) {
  return app.add_option(name, value, help)
      ->transform(CLI::AsSizeValue(true).description(""))
      ->type_name("BYTES")
      ->capture_default_str();
}

std::vector<std::size_t> size_sweep(const InterferenceOptions& options) {
  if (options.min_bytes < 4 || options.min_bytes % 4 != 0) {
    throw CLI::ValidationError("--min-bytes", "must be a positive multiple of 4 (the GPU writes "
                                              "32-bit words), got " +
                                                  std::to_string(options.min_bytes));
  }
  if (options.max_bytes < options.min_bytes) {
    throw CLI::ValidationError("--max-bytes", std::to_string(options.max_bytes) +
                                                  " is below --min-bytes " +
                                                  std::to_string(options.min_bytes));
  }
  if (options.max_bytes > kMaxMessageBytes) {
    throw CLI::ValidationError("--max-bytes", "at most " + std::to_string(kMaxMessageBytes) +
                                                  " (1 GiB), got " +
                                                  std::to_string(options.max_bytes));
  }
  std::vector<std::size_t> sizes;
  for (std::uint64_t bytes = options.min_bytes; bytes <= options.max_bytes;
       bytes *= static_cast<std::uint64_t>(options.size_factor)) {
    sizes.push_back(static_cast<std::size_t>(bytes));
  }
  return sizes;
}

}  // namespace

InterferenceOptions parse_interference_options(CLI::App& app, int argc, char** argv) {
  InterferenceOptions options;
  AccessorSettings& accessor = options.accessor;

  add_backend_option(app, options.backend_name,
                     "where the writes run; auto: the GPU when present, else CPU threads (host)");
  add_gpu_option(app, options.gpu, "GPU index of each rank (default: node-local rank)");
  app.add_option("--scenarios", options.scenario_argument,
                 "scenarios besides the baseline (always measured): ssb, psb, pcb, p2ab, copies")
      ->type_name("NAME[,NAME...]|all")
      ->capture_default_str();
  app.add_option("--access", options.access_argument,
                 "GPU access forms: stream (one block), stacked (cooperative grid)")
      ->type_name("stream|stacked|all")
      ->capture_default_str();
  add_bytes(app, "--min-bytes", options.min_bytes, "smallest buffer");
  add_bytes(app, "--max-bytes", options.max_bytes, "largest buffer");
  app.add_option("--size-factor", options.size_factor, "step between two buffer sizes")
      ->check(CLI::IsMember({2, 4}).description(""))
      ->type_name("2|4")
      ->capture_default_str();
  add_count(app, "--warmup", options.warmup, "rounds per case before timing, not counted", 0);
  add_count(app, "--iterations", options.iterations, "timed MPI_Send rounds per case", 1);
  add_timeout_option(app, options.timeout_seconds,
                     "deadline of every wait (flags, kernels, messages, copies), seconds");
  app.add_option("--stop-poll-ns", options.stop_poll_ns,
                 "least time between two reads of the stop flag by the writing group's leader")
      ->check(CLI::Range(0, 1000000).description(""))
      ->capture_default_str();
  add_bytes(app, "--p2ab-gap-bytes", options.p2ab_gap_bytes,
            "P2AB: gap between the send buffer and the buffer the GPU keeps writing");
  add_bytes(app, "--copy-bytes", options.copy_bytes,
            "copies: bytes of each host->device and device->host copy");
  add_count(app, "--stream-threads", accessor.stream_threads,
                 "threads of the stream form's one block; 0: the most a block can have", 0);
  add_count(app, "--stacked-threads", accessor.stacked_threads,
                 "threads per block of the stacked grid; 0: the most a block can have", 0);
  add_count(app, "--stacked-blocks", accessor.stacked_blocks,
                 "blocks of the stacked grid; 0: as many as can be resident at once", 0);
  add_count(app, "--host-threads", accessor.host_threads,
                 "host backend: stand-in threads of the stacked form", 1);
  add_json_option(app, options.json_path, "JSON report with every sample; '' for none");

  app.parse(argc, argv);

  try {
    options.scenarios = parse_scenario_list(options.scenario_argument);
  } catch (const std::invalid_argument& error) {
    throw CLI::ValidationError("--scenarios", error.what());
  }
  try {
    options.forms = parse_access_list(options.access_argument);
  } catch (const std::invalid_argument& error) {
    throw CLI::ValidationError("--access", error.what());
  }
  if (options.copy_bytes == 0) {
    throw CLI::ValidationError("--copy-bytes", "must be at least 1");
  }
  options.sizes = size_sweep(options);
  return options;
}

}  // namespace haloflag::bench::interference
