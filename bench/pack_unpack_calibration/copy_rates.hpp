// What the fused kernels' rates stand beside: the bytes of each cube's halo copied within the
// GPU's memory by its copy engine (cudaMemcpyAsync, device to device) and to the next visible GPU
// (cudaMemcpyPeerAsync), timed like the halo sets (launch to synchronize, every rank at once after
// a barrier, each run's slowest rank). The host backend times a memcpy and has no peer.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "message_shapes.hpp"
#include "shape_measurement.hpp"

namespace haloflag::bench {

struct TimedCopies {
  std::int64_t cube = 0;
  std::int64_t bytes = 0;  // of one rank's halo: its sends together
  // Microseconds, one list per rank (rank 0 after gather_copy_samples; before, the rank's own).
  std::vector<std::vector<double>> device_us;
  std::vector<std::vector<double>> peer_us;  // empty: no peer on some rank
};

struct CopyRates {
  std::string device_copy;  // how the copy within memory is made
  std::string peer;         // rank 0's peer, or why there is none
  std::vector<TimedCopies> cubes;
};

// Collective over `comm`: every rank copies the same bytes at once. A peer copy is timed only
// when every rank has a peer.
CopyRates measure_copy_rates(const std::vector<CubeHalo>& cubes, const MeasureSettings& settings,
                             MPI_Comm comm);

// Collective over `comm`, like gather_halo_set_samples.
void gather_copy_samples(MPI_Comm comm, CopyRates& rates, int iterations);

// The median over the runs of each run's slowest rank; 0 for an empty list of ranks.
double slowest_copy_median_us(const std::vector<std::vector<double>>& rank_samples);

}  // namespace haloflag::bench
