#include "bulk_exchange.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_call.hpp"
#include "size_list_check.hpp"

namespace haloflag::model::calibration {

namespace {

constexpr int kTag = 7101;

void check_options(const BulkExchangeOptions& options, int ranks) {
  if (ranks < 2 || ranks % 2 != 0) {
    throw std::invalid_argument("bulk exchange: needs an even number of ranks (pairs r, r ^ 1), "
                                "got " + std::to_string(ranks));
  }
  if (options.sizes.size() < 2) {
    throw std::invalid_argument("bulk exchange: fitting needs at least 2 sizes, got " +
                                std::to_string(options.sizes.size()));
  }
  check_size_list(options.sizes, std::int64_t{1} << 28, "256 MiB", "bulk exchange");
  if (options.messages < 1 || options.iterations < 1 || options.warmup < 0) {
    throw std::invalid_argument("bulk exchange: messages and iterations must be >= 1, warm-up "
                                ">= 0 (got " + std::to_string(options.messages) + ", " +
                                std::to_string(options.iterations) + ", " +
                                std::to_string(options.warmup) + ")");
  }
}

}  // namespace

BulkExchangeResult measure_bulk_exchange(MPI_Comm comm, const BulkExchangeOptions& options) {
  const auto [rank, ranks] = rank_and_size(comm);
  check_options(options, ranks);

  BulkExchangeResult result;
  result.options = options;
  result.run = collect_run_info(comm, "haloflag_calibrate_bulk_exchange");

  const int partner = rank ^ 1;
  const auto messages = static_cast<std::size_t>(options.messages);
  const auto largest = static_cast<std::size_t>(options.sizes.back());
  // Every message its own buffer, as every halo message has its own slot.
  std::vector<char> sends(messages * largest, 's');
  std::vector<char> recvs(messages * largest, 'r');
  std::vector<MPI_Request> requests(2 * messages);
  for (const std::int64_t bytes : options.sizes) {
    const int count = static_cast<int>(bytes);
    std::vector<double> samples;
    for (int i = 0; i < options.warmup + options.iterations; ++i) {
      check_mpi(MPI_Barrier(comm), "MPI_Barrier");
      const double start = MPI_Wtime();
      for (std::size_t m = 0; m < messages; ++m) {
        check_mpi(MPI_Irecv(recvs.data() + m * largest, count, MPI_CHAR, partner,
                            kTag + static_cast<int>(m), comm, &requests[m]),
                  "MPI_Irecv");
      }
      for (std::size_t m = 0; m < messages; ++m) {
        check_mpi(MPI_Isend(sends.data() + m * largest, count, MPI_CHAR, partner,
                            kTag + static_cast<int>(m), comm, &requests[messages + m]),
                  "MPI_Isend");
      }
      check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                            MPI_STATUSES_IGNORE),
                "MPI_Waitall");
      double elapsed = MPI_Wtime() - start;
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm),
                "MPI_Allreduce(slowest rank)");
      if (i >= options.warmup) samples.push_back(elapsed);
    }
    BulkExchangeTiming timing;
    timing.message_bytes = bytes;
    timing.moved_bytes = 2 * options.messages * bytes;
    timing.seconds = summarize(samples);
    result.timings.push_back(timing);
  }

  std::vector<std::int64_t> moved;
  std::vector<double> medians;
  for (const BulkExchangeTiming& timing : result.timings) {
    moved.push_back(timing.moved_bytes);
    medians.push_back(timing.seconds.median);
  }
  result.fit = fit_postal(moved, medians);
  return result;
}

}  // namespace haloflag::model::calibration
