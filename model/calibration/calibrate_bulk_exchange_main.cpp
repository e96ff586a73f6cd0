// haloflag_calibrate_bulk_exchange: pairs of ranks exchanging several messages both ways at once;
// the slowest rank's time per size and T = latency + bytes moved * seconds_per_byte, the
// prediction's MPI copy term. Writes JSON (docs/model.md).
#include <cstdio>
#include <string>

#include "bulk_exchange.hpp"
#include "calibration_files.hpp"
#include "pingpong.hpp"
#include "tool_main.hpp"

using namespace haloflag::model::calibration;

int main(int argc, char** argv) {
  CLI::App app{"MPI bulk exchange: pairs of ranks send and receive --messages messages of each "
               "size at once; fits T = latency + (bytes sent + received) * seconds_per_byte."};
  std::int64_t min_bytes = 1024;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  BulkExchangeOptions options;
  std::string out_path;
  app.add_option("--min-bytes", min_bytes, "smallest message (sizes are powers of four)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-bytes", max_bytes, "largest message")->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--messages", options.messages, "messages per direction and exchange")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--iterations", options.iterations, "timed exchanges per size")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", options.warmup, "untimed exchanges per size first")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--quick", options.quick,
               "CI mode: messages up to 256 KiB, 5 iterations, 1 warm-up (unless given)");
  app.add_option("-o,--out", out_path, "output JSON file")->required();

  return run_mpi_tool(app, argc, argv, "haloflag_calibrate_bulk_exchange", [&](int rank) {
    if (options.quick) {
      if (app.count("--max-bytes") == 0) max_bytes = std::int64_t{256} << 10;
      if (app.count("--iterations") == 0) options.iterations = 5;
      if (app.count("--warmup") == 0) options.warmup = 1;
    }
    // Powers of four: the fit needs the range, not every step of it.
    for (const std::int64_t size : power_of_two_sizes(min_bytes, max_bytes)) {
      if (options.sizes.empty() || size >= 4 * options.sizes.back()) options.sizes.push_back(size);
    }
    const BulkExchangeResult result = measure_bulk_exchange(MPI_COMM_WORLD, options);
    if (rank != 0) return;

    std::printf("bulk exchange: %d ranks in pairs, %d messages each way, %s\n", result.run.ranks,
                options.messages, result.run.mpi_library.c_str());
    std::printf("%12s %14s %12s %12s %12s %12s\n", "message B", "moved B", "median[us]",
                "p10[us]", "p90[us]", "MB/s moved");
    for (const BulkExchangeTiming& t : result.timings) {
      std::printf("%12lld %14lld %12.3f %12.3f %12.3f %12.1f\n",
                  static_cast<long long>(t.message_bytes), static_cast<long long>(t.moved_bytes),
                  t.seconds.median * 1e6, t.seconds.p10 * 1e6, t.seconds.p90 * 1e6,
                  static_cast<double>(t.moved_bytes) / t.seconds.median / 1e6);
    }
    std::printf("fit: latency %.3e s, %.3e s per byte moved (%.2f GB/s), rms %.3f%s\n",
                result.fit.params.alpha, result.fit.params.beta, 1e-9 / result.fit.params.beta,
                result.fit.rms_relative_residual, result.fit.clamped ? " (clamped)" : "");
    write_text(out_path, bulk_exchange_to_json(result));
    std::printf("wrote %s\n", out_path.c_str());
  });
}
