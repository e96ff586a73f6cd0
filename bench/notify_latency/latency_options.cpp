#include "latency_options.hpp"

#include <string>

#include "haloflag/bench/integer_validator.hpp"
#include "haloflag/bench/shared_options.hpp"

namespace haloflag::bench {

namespace {

// Sample counts are held in memory (and in the JSON report) in full; this keeps them sane.
constexpr long long kMostSamples = 10'000'000;

}  // namespace

const char* to_string(HostWait wait) { return wait == HostWait::spin ? "spin" : "yield"; }

LatencyOptions parse_latency_options(CLI::App& app, int argc, char** argv) {
  LatencyOptions options;
  add_backend_option(app, options.backend_name,
                     "where the device side runs; auto: the GPU when one is usable, else host "
                     "(a CPU thread stands in for the GPU and says so)");
  app.add_option("--gpu", options.gpu, "GPU index on a GPU backend")
      ->check(integer_range(0, 1023))
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--warmup", options.warmup,
                 "samples run before timing, not counted, per measurement")
      ->check(integer_range(0, kMostSamples))
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--iterations", options.iterations, "timed samples per measurement")
      ->check(integer_range(1, kMostSamples))
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--ops-per-sample", options.ops_per_sample,
                 "Table 1 rows: (read, write) pairs per timed window; a sample is the window's "
                 "time divided by this")
      ->check(integer_range(1, 1'000'000))
      ->type_name("N")
      ->capture_default_str();
  add_timeout_option(app, options.timeout_seconds, "deadline in seconds of every wait", 3600.0);
  app.add_option("--poll-backoff-ns", options.poll_backoff_ns,
                 "pause of a GPU thread between two polls of a flag (the exchange engine uses 200)")
      ->check(integer_range(0, 1'000'000))
      ->type_name("N")
      ->capture_default_str();
  std::string host_wait = to_string(options.host_wait);
  add_choice(app, "--host-wait", host_wait, {"spin", "yield"},
             "how the host waits for the device's flag: spin (poll without pause) or yield (the "
             "library's FlagArray::wait, which yields between polls)");
  add_json_option(app, options.json_path, "write the JSON report (with every sample) to FILE");
  app.parse(argc, argv);
  options.host_wait = host_wait == "spin" ? HostWait::spin : HostWait::yield;
  return options;
}

}  // namespace haloflag::bench
