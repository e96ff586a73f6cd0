#include "pingpong.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_call.hpp"
#include "size_list_check.hpp"

namespace haloflag::model::calibration {

namespace {

constexpr int kPingTag = 7001;
constexpr int kPongTag = 7002;

void check_options(const PingPongOptions& options, int ranks) {
  if (ranks < 2) {
    throw std::invalid_argument("ping-pong needs at least 2 ranks, got " + std::to_string(ranks));
  }
  if (options.rank_a == options.rank_b || options.rank_a < 0 || options.rank_b < 0 ||
      options.rank_a >= ranks || options.rank_b >= ranks) {
    throw std::invalid_argument("ping-pong pair " + std::to_string(options.rank_a) + "," +
                                std::to_string(options.rank_b) + " is not two different ranks of " +
                                std::to_string(ranks));
  }
  if (options.sizes.size() < 2) {
    throw std::invalid_argument("ping-pong: fitting alpha and beta needs at least 2 sizes, got " +
                                std::to_string(options.sizes.size()));
  }
  check_size_list(options.sizes, std::int64_t{1} << 30, "1 GiB", "ping-pong");
  if (options.iterations < 1) {
    throw std::invalid_argument("ping-pong: iterations must be >= 1, got " +
                                std::to_string(options.iterations));
  }
  if (options.warmup < 0) {
    throw std::invalid_argument("ping-pong: warm-up must be >= 0, got " +
                                std::to_string(options.warmup));
  }
}

}  // namespace

std::vector<std::int64_t> power_of_two_sizes(std::int64_t min_bytes, std::int64_t max_bytes) {
  if (min_bytes < 1 || max_bytes < min_bytes) {
    throw std::invalid_argument("sizes: need 1 <= min (" + std::to_string(min_bytes) +
                                ") <= max (" + std::to_string(max_bytes) + ")");
  }
  std::vector<std::int64_t> sizes;
  std::int64_t size = 1;
  while (size < min_bytes) size *= 2;
  for (; size <= max_bytes; size *= 2) sizes.push_back(size);
  if (sizes.empty()) sizes.push_back(min_bytes);
  return sizes;
}

PingPongResult measure_pingpong(MPI_Comm comm, const PingPongOptions& options) {
  const auto [rank, ranks] = rank_and_size(comm);
  check_options(options, ranks);

  PingPongResult result;
  result.options = options;
  result.run = collect_run_info(comm, "haloflag_calibrate_pingpong");

  const bool is_a = rank == options.rank_a;
  const bool is_b = rank == options.rank_b;
  std::vector<char> buffer(static_cast<std::size_t>(options.sizes.back()), 'x');
  for (const std::int64_t bytes : options.sizes) {
    const int count = static_cast<int>(bytes);
    std::vector<double> samples;
    check_mpi(MPI_Barrier(comm), "MPI_Barrier");
    for (int i = 0; i < options.warmup + options.iterations; ++i) {
      if (is_a) {
        const double start = MPI_Wtime();
        check_mpi(MPI_Send(buffer.data(), count, MPI_CHAR, options.rank_b, kPingTag, comm),
                  "MPI_Send(ping)");
        check_mpi(MPI_Recv(buffer.data(), count, MPI_CHAR, options.rank_b, kPongTag, comm,
                           MPI_STATUS_IGNORE),
                  "MPI_Recv(pong)");
        const double elapsed = MPI_Wtime() - start;
        if (i >= options.warmup) samples.push_back(elapsed / 2.0);
      } else if (is_b) {
        check_mpi(MPI_Recv(buffer.data(), count, MPI_CHAR, options.rank_a, kPingTag, comm,
                           MPI_STATUS_IGNORE),
                  "MPI_Recv(ping)");
        check_mpi(MPI_Send(buffer.data(), count, MPI_CHAR, options.rank_a, kPongTag, comm),
                  "MPI_Send(pong)");
      }
    }
    // Rank a's summary goes to everyone.
    double summary[6] = {};
    if (is_a) {
      const SampleSummary s = summarize(samples);
      summary[0] = s.count;
      summary[1] = s.median;
      summary[2] = s.p10;
      summary[3] = s.p90;
      summary[4] = s.min;
      summary[5] = s.max;
    }
    check_mpi(MPI_Bcast(summary, 6, MPI_DOUBLE, options.rank_a, comm), "MPI_Bcast(summary)");
    SizeTiming timing;
    timing.bytes = bytes;
    timing.one_way_seconds = {static_cast<int>(summary[0]), summary[1], summary[2],
                              summary[3], summary[4], summary[5]};
    result.timings.push_back(timing);
  }

  std::vector<std::int64_t> sizes;
  std::vector<double> medians;
  for (const SizeTiming& timing : result.timings) {
    sizes.push_back(timing.bytes);
    medians.push_back(timing.one_way_seconds.median);
  }
  result.fit = fit_protocol_switch(sizes, medians, options.threshold);
  return result;
}

}  // namespace haloflag::model::calibration
