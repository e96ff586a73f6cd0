// haloflag_calibrate_concurrent: aggregate bandwidth of 1..k concurrent flows per message size,
// and R_Cb, R_Ci fitted to it. Writes JSON (docs/model.md).
#include <cstdio>
#include <string>
#include <vector>

#include "calibration_files.hpp"
#include "concurrent_bandwidth.hpp"
#include "tool_main.hpp"

using namespace haloflag::model::calibration;

int main(int argc, char** argv) {
  CLI::App app{"Concurrent bandwidth: flow i is rank i -> rank i + ranks/2; aggregate bandwidth "
               "of 1..k flows fits R_Cb + (f-1)*R_Ci. With 2 ranks, flows are emulated."};
  std::vector<std::int64_t> sizes{4096, 16384, 65536, std::int64_t{1} << 20};
  int max_flows = 0;
  int window = 8;
  int iterations = 50;
  int warmup = 5;
  bool quick = false;
  std::string out_path;
  app.add_option("--sizes", sizes,
                 "message sizes in bytes, increasing (the merge uses the largest on each side of "
                 "the eager threshold)")->capture_default_str()->delimiter(',');
  app.add_option("--max-flows", max_flows, "most concurrent flows (0: all pairs; 4 emulated)")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--window", window, "messages in flight per flow per iteration")->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--iterations", iterations, "timed iterations per point")->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup, "untimed iterations per point first")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--quick", quick, "CI mode: sizes 4 KiB and 256 KiB, window 4, 5 iterations, "
                                 "1 warm-up, 3 flows (unless given)");
  app.add_option("-o,--out", out_path, "output JSON file")->required();

  return run_mpi_tool(app, argc, argv, "haloflag_calibrate_concurrent", [&](int rank) {
    if (quick) {
      if (app.count("--sizes") == 0) sizes = {4096, 262144};
      if (app.count("--window") == 0) window = 4;
      if (app.count("--iterations") == 0) iterations = 5;
      if (app.count("--warmup") == 0) warmup = 1;
      if (app.count("--max-flows") == 0) max_flows = 3;
    }
    ConcurrentOptions options;
    options.sizes = sizes;
    options.max_flows = max_flows;
    options.window = window;
    options.iterations = iterations;
    options.warmup = warmup;
    options.quick = quick;
    const ConcurrentResult result = measure_concurrent_bandwidth(MPI_COMM_WORLD, options);
    if (rank != 0) return;

    std::printf("concurrent bandwidth, %d pair(s)%s, %s\n", result.pairs_available,
                result.flows_emulated ? " (flows emulated by messages in flight)" : "",
                result.run.mpi_library.c_str());
    std::printf("%12s %6s %16s %16s %16s\n", "bytes", "flows", "median[MB/s]", "p10[MB/s]",
                "p90[MB/s]");
    for (const SizeBandwidth& size : result.sizes) {
      for (const FlowMeasurement& p : size.points) {
        std::printf("%12lld %6d %16.1f %16.1f %16.1f\n", static_cast<long long>(size.bytes),
                    p.flows, p.bandwidth.median / 1e6, p.bandwidth.p10 / 1e6,
                    p.bandwidth.p90 / 1e6);
      }
      std::printf("%12lld  fit: R_Cb %.3e B/s, R_Ci %.3e B/s%s\n",
                  static_cast<long long>(size.bytes), size.fit.r_cb, size.fit.r_ci,
                  size.fit.r_ci_clamped ? " (R_Ci clamped)" : "");
    }
    write_text(out_path, concurrent_to_json(result));
    std::printf("wrote %s\n", out_path.c_str());
  });
}
