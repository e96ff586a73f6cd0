#include "copy_rates.hpp"

#include <chrono>
#include <cstring>
#include <functional>
#include <optional>

#include "gpu_copies.hpp"
#include "mpi_call.hpp"
#include "sample_summary.hpp"

namespace haloflag::bench {

namespace {

using model::calibration::check_mpi;

std::vector<double> time_runs(const std::function<double()>& run, const MeasureSettings& settings,
                              MPI_Comm comm) {
  const auto one = [&] {
    check_mpi(MPI_Barrier(comm), "MPI_Barrier(copy run)");
    return run();
  };
  for (int i = 0; i < settings.warmup; ++i) one();
  std::vector<double> samples;
  for (int i = 0; i < settings.iterations; ++i) samples.push_back(one() * 1e6);
  return samples;
}

bool every_rank(MPI_Comm comm, bool mine) {
  int local = mine ? 1 : 0;
  int all = 0;
  check_mpi(MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce(peers)");
  return all == 1;
}

// The host backend's copy within memory: a memcpy between two host buffers.
std::vector<double> time_host_copy(std::int64_t bytes, const MeasureSettings& settings,
                                   MPI_Comm comm) {
  std::vector<std::byte> source(static_cast<std::size_t>(bytes), std::byte{1});
  std::vector<std::byte> target(source.size());
  return time_runs(
      [&] {
        const auto start = std::chrono::steady_clock::now();
        std::memcpy(target.data(), source.data(), source.size());
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      },
      settings, comm);
}

std::int64_t halo_bytes(const CubeHalo& cube) {
  std::int64_t bytes = 0;
  for (const kernels::MessageLayout& layout : cube.layouts.sends) bytes += layout.bytes();
  return bytes;
}

}  // namespace

CopyRates measure_copy_rates(const std::vector<CubeHalo>& cubes, const MeasureSettings& settings,
                             MPI_Comm comm) {
  CopyRates rates;
  const bool gpu = settings.backend != notify::Backend::host;
  rates.device_copy = gpu ? "cudaMemcpyAsync device to device on each rank's GPU"
                          : "memcpy in host memory (host backend)";
  rates.peer = gpu ? "" : "no peer GPU: host backend";
  for (const CubeHalo& cube : cubes) {
    TimedCopies timed;
    timed.cube = cube.side;
    timed.bytes = halo_bytes(cube);
    if (!gpu) {
      timed.device_us = {time_host_copy(timed.bytes, settings, comm)};
      rates.cubes.push_back(std::move(timed));
      continue;
    }
    GpuCopies copies(timed.bytes);
    rates.peer = copies.peer();
    timed.device_us = {time_runs([&] { return copies.device_copy_s(); }, settings, comm)};
    if (every_rank(comm, copies.has_peer())) {
      timed.peer_us = {time_runs([&] { return copies.peer_copy_s(); }, settings, comm)};
    } else if (copies.has_peer()) {
      rates.peer = "no peer copy: some rank has no peer GPU";
    }
    rates.cubes.push_back(std::move(timed));
  }
  return rates;
}

void gather_copy_samples(MPI_Comm comm, CopyRates& rates, int iterations) {
  std::vector<const std::vector<double>*> lists;
  for (const TimedCopies& cube : rates.cubes) {
    lists.push_back(&cube.device_us.at(0));
    if (!cube.peer_us.empty()) lists.push_back(&cube.peer_us[0]);
  }
  auto gathered = gather_sample_lists(comm, lists, iterations, "copy samples");
  if (gathered.empty()) return;
  std::size_t next = 0;
  for (TimedCopies& cube : rates.cubes) {
    cube.device_us = std::move(gathered[next++]);
    if (!cube.peer_us.empty()) cube.peer_us = std::move(gathered[next++]);
  }
}

double slowest_copy_median_us(const std::vector<std::vector<double>>& rank_samples) {
  if (rank_samples.empty()) return 0.0;
  return model::calibration::summarize(model::calibration::slowest_rank_per_run(rank_samples))
      .median;
}

}  // namespace haloflag::bench
