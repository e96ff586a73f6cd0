// haloflag_calibrate_pingpong: one-way times over message sizes between two ranks, and alpha and
// beta fitted on each side of the eager/rendezvous switch. Writes JSON (docs/model.md).
#include <cstdio>
#include <string>
#include <vector>

#include "calibration_files.hpp"
#include "pingpong.hpp"
#include "size_time_table.hpp"
#include "tool_main.hpp"

using namespace haloflag::model::calibration;

int main(int argc, char** argv) {
  CLI::App app{"MPI ping-pong: median/p10/p90 one-way time per size; fits T = alpha + beta*n on "
               "each side of the detected (or given) eager/rendezvous switch."};
  std::int64_t min_bytes = 8;
  std::int64_t max_bytes = std::int64_t{16} << 20;
  int iterations = 100;
  int warmup = 10;
  std::vector<int> pair{0, 1};
  std::int64_t threshold = -1;
  bool quick = false;
  std::string out_path;
  app.add_option("--min-bytes", min_bytes, "smallest size (sizes are powers of two)")->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-bytes", max_bytes, "largest size")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--iterations", iterations, "timed round trips per size")->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup, "untimed round trips per size first")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--pair", pair, "the two ranks (A times)")->capture_default_str()->expected(2)->delimiter(',');
  app.add_option("--threshold", threshold,
                 "eager threshold in bytes (n <= threshold: eager); detected when not given")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--quick", quick, "CI mode: sizes up to 1 MiB, 10 iterations, 2 warm-up "
                                 "(unless given)");
  app.add_option("-o,--out", out_path, "output JSON file")->required();

  return run_mpi_tool(app, argc, argv, "haloflag_calibrate_pingpong", [&](int rank) {
    if (quick) {
      if (app.count("--max-bytes") == 0) max_bytes = std::int64_t{1} << 20;
      if (app.count("--iterations") == 0) iterations = 10;
      if (app.count("--warmup") == 0) warmup = 2;
    }
    PingPongOptions options;
    options.sizes = power_of_two_sizes(min_bytes, max_bytes);
    options.iterations = iterations;
    options.warmup = warmup;
    options.rank_a = pair[0];
    options.rank_b = pair[1];
    if (threshold >= 0) options.threshold = threshold;
    options.quick = quick;
    const PingPongResult result = measure_pingpong(MPI_COMM_WORLD, options);
    if (rank != 0) return;

    std::printf("ping-pong ranks %d <-> %d (%s <-> %s), %s\n", options.rank_a, options.rank_b,
                result.run.hosts[static_cast<std::size_t>(options.rank_a)].c_str(),
                result.run.hosts[static_cast<std::size_t>(options.rank_b)].c_str(),
                result.run.mpi_library.c_str());
    print_size_time_heading("MB/s");
    for (const SizeTiming& t : result.timings) print_size_time_row(t.bytes, t.one_way_seconds, 1e6);
    const auto& fit = result.fit;
    std::printf("threshold %lld B (%s); eager alpha %.3e s beta %.3e s/B (rms %.3f); rendezvous "
                "alpha %.3e s beta %.3e s/B (rms %.3f)\n",
                static_cast<long long>(fit.threshold_bytes), fit.method.c_str(),
                fit.eager.params.alpha, fit.eager.params.beta, fit.eager.rms_relative_residual,
                fit.rendezvous.params.alpha, fit.rendezvous.params.beta,
                fit.rendezvous.rms_relative_residual);
    write_text(out_path, pingpong_to_json(result));
    std::printf("wrote %s\n", out_path.c_str());
  });
}
