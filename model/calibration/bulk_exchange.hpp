// MPI bulk exchange between pairs of ranks (rank r with r ^ 1): each rank posts `messages`
// receives and sends of n bytes to its partner at once and waits for all, as a halo exchange's
// MPI phase does. Within a node, Open MPI's shared-memory transport copies every byte a rank sends
// and receives on that rank's own thread, so the slowest rank's time per size, fitted as
// T = latency + (bytes sent + received) * seconds_per_byte, is the prediction's MPI copy term.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "haloflag/model/postal_fit.hpp"
#include "run_info.hpp"
#include "sample_summary.hpp"

namespace haloflag::model::calibration {

struct BulkExchangeOptions {
  std::vector<std::int64_t> sizes;  // bytes per message, strictly increasing, each >= 1
  int messages = 6;                 // per direction and exchange
  int iterations = 50;
  int warmup = 5;
  bool quick = false;  // recorded only
};

struct BulkExchangeTiming {
  std::int64_t message_bytes = 0;
  std::int64_t moved_bytes = 0;  // sent + received by one rank: 2 * messages * message_bytes
  SampleSummary seconds;         // the slowest rank's time per exchange
};

struct BulkExchangeResult {
  BulkExchangeOptions options;
  RunInfo run;
  std::vector<BulkExchangeTiming> timings;
  PostalFit fit;  // over moved_bytes: alpha the latency, beta the seconds per byte moved
};

// Collective over `comm`, an even number of ranks >= 2. Every rank returns the same result.
// Throws std::invalid_argument for bad options (naming the value), MpiError for MPI failures.
BulkExchangeResult measure_bulk_exchange(MPI_Comm comm, const BulkExchangeOptions& options);

}  // namespace haloflag::model::calibration
