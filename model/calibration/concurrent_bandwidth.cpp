#include "concurrent_bandwidth.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_call.hpp"
#include "size_list_check.hpp"

namespace haloflag::model::calibration {

namespace {

constexpr int kDataTag = 7101;
constexpr int kAckTag = 7102;
constexpr int kDefaultEmulatedFlows = 4;

void check_options(const ConcurrentOptions& options, int ranks) {
  if (ranks < 2) {
    throw std::invalid_argument("concurrent bandwidth needs at least 2 ranks, got " +
                                std::to_string(ranks));
  }
  if (options.sizes.empty()) throw std::invalid_argument("concurrent bandwidth: no message sizes");
  check_size_list(options.sizes, std::int64_t{1} << 30, "1 GiB", "concurrent bandwidth");
  if (options.max_flows < 0) {
    throw std::invalid_argument("concurrent bandwidth: max flows must be >= 0, got " +
                                std::to_string(options.max_flows));
  }
  if (options.window < 1 || options.iterations < 1 || options.warmup < 0) {
    throw std::invalid_argument("concurrent bandwidth: need window >= 1 (got " +
                                std::to_string(options.window) + "), iterations >= 1 (got " +
                                std::to_string(options.iterations) + "), warm-up >= 0 (got " +
                                std::to_string(options.warmup) + ")");
  }
}

// One timed round: active senders post `messages` sends and wait for the receiver's ack.
// Returns this rank's elapsed time (0 when not a timing sender).
double run_round(MPI_Comm comm, int rank, int pairs, int active_pairs, int messages,
                 std::int64_t bytes, std::vector<char>& send_buffer,
                 std::vector<char>& receive_buffer, std::vector<MPI_Request>& requests) {
  const int count = static_cast<int>(bytes);
  const bool sender = rank < active_pairs;
  const bool receiver = rank >= pairs && rank < pairs + active_pairs;
  check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  if (sender) {
    const int peer = rank + pairs;
    const double start = MPI_Wtime();
    for (int m = 0; m < messages; ++m) {
      // One send buffer for all: concurrent sends may read the same memory (MPI-3).
      check_mpi(MPI_Isend(send_buffer.data(), count, MPI_CHAR, peer, kDataTag, comm, &requests[m]),
                "MPI_Isend");
    }
    check_mpi(MPI_Waitall(messages, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall(sends)");
    check_mpi(MPI_Recv(nullptr, 0, MPI_CHAR, peer, kAckTag, comm, MPI_STATUS_IGNORE),
              "MPI_Recv(ack)");
    return MPI_Wtime() - start;
  }
  if (receiver) {
    const int peer = rank - pairs;
    for (int m = 0; m < messages; ++m) {
      char* slot = receive_buffer.data() + static_cast<std::size_t>(m) * static_cast<std::size_t>(bytes);
      check_mpi(MPI_Irecv(slot, count, MPI_CHAR, peer, kDataTag, comm, &requests[m]), "MPI_Irecv");
    }
    check_mpi(MPI_Waitall(messages, requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall(receives)");
    check_mpi(MPI_Send(nullptr, 0, MPI_CHAR, peer, kAckTag, comm), "MPI_Send(ack)");
  }
  return 0.0;
}

}  // namespace

ConcurrentResult measure_concurrent_bandwidth(MPI_Comm comm, const ConcurrentOptions& options) {
  const auto [rank, ranks] = rank_and_size(comm);
  check_options(options, ranks);

  ConcurrentResult result;
  result.options = options;
  result.run = collect_run_info(comm, "haloflag_calibrate_concurrent");
  result.pairs_available = ranks / 2;
  result.flows_emulated = result.pairs_available < 2;
  const int pairs = result.pairs_available;
  int max_flows = options.max_flows;
  if (result.flows_emulated) {
    if (max_flows == 0) max_flows = kDefaultEmulatedFlows;
  } else {
    max_flows = max_flows == 0 ? pairs : std::min(max_flows, pairs);
  }

  const int max_messages = options.window * (result.flows_emulated ? max_flows : 1);
  std::vector<MPI_Request> requests(static_cast<std::size_t>(max_messages), MPI_REQUEST_NULL);
  std::vector<char> send_buffer;
  std::vector<char> receive_buffer;
  if (rank < pairs) send_buffer.assign(static_cast<std::size_t>(options.sizes.back()), 's');
  if (rank >= pairs && rank < 2 * pairs) {
    receive_buffer.resize(static_cast<std::size_t>(options.sizes.back()) *
                          static_cast<std::size_t>(max_messages));
  }

  for (const std::int64_t bytes : options.sizes) {
    SizeBandwidth size_result;
    size_result.bytes = bytes;
    for (int flows = 1; flows <= max_flows; ++flows) {
      const int active_pairs = result.flows_emulated ? 1 : flows;
      const int messages = options.window * (result.flows_emulated ? flows : 1);
      std::vector<double> seconds;
      std::vector<double> bandwidth;
      for (int i = 0; i < options.warmup + options.iterations; ++i) {
        const double mine = run_round(comm, rank, pairs, active_pairs, messages, bytes,
                                      send_buffer, receive_buffer, requests);
        double slowest = 0.0;
        check_mpi(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm),
                  "MPI_Allreduce(slowest flow)");
        if (i < options.warmup) continue;
        const double moved = static_cast<double>(active_pairs) * messages * static_cast<double>(bytes);
        seconds.push_back(slowest);
        bandwidth.push_back(slowest > 0.0 ? moved / slowest : 0.0);
      }
      FlowMeasurement point;
      point.flows = flows;
      point.messages_per_flow = options.window;
      point.seconds = summarize(seconds);
      point.bandwidth = summarize(bandwidth);
      size_result.points.push_back(point);
    }
    std::vector<double> flow_counts;
    std::vector<double> medians;
    for (const FlowMeasurement& point : size_result.points) {
      flow_counts.push_back(point.flows);
      medians.push_back(point.bandwidth.median);
    }
    size_result.fit = fit_bandwidth(flow_counts, medians);
    result.sizes.push_back(std::move(size_result));
  }
  return result;
}

}  // namespace haloflag::model::calibration
