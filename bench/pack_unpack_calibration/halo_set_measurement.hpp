// Halo sets: the whole halo of a periodic cube subdomain (26 sends, 26 receives) packed and
// unpacked in one launch each by the fused kernels, with the buffer pinned and in device memory,
// verified, timed on every rank at once (a barrier before each run), as the ranks of an exchange
// run them, and fitted per work and place with T(B) = latency + B / bytes_per_s over the cubes'
// halo bytes B and each run's slowest rank. A bulk strategy pays this time per exchange, which
// one message per launch (shape_measurement.hpp) cannot show.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "halo_set_kernel.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/model/postal_fit.hpp"
#include "message_shapes.hpp"
#include "shape_measurement.hpp"

namespace haloflag::bench {

struct TimedHaloSet {
  std::int64_t cube = 0;
  halo::Index3 field_extent{0, 0, 0};
  int vars = 1;
  MessageWork work = MessageWork::pack;
  BufferPlace place = BufferPlace::pinned;
  int messages = 0;
  std::int64_t bytes = 0;  // of every message of the set together
  // Launch to synchronize, microseconds, one list per rank (after gather_halo_set_samples on
  // rank 0; before it, the measuring rank's own list only).
  std::vector<std::vector<double>> launch_us;
};

// The median over the runs of each run's slowest rank (every rank times run i after the same
// barrier): an exchange waits for its slowest rank, and halo_bench times it so. What the fit
// takes. Ranks of one GPU take turns rather than share it evenly, so the pooled median of every
// rank's runs would fall between the early and the late rank.
double slowest_rank_median_us(const TimedHaloSet& set);

// The cubes of `sides`, built before anything is measured: every rank throws the same
// std::invalid_argument for a cube the geometry rejects, before any rank waits for another.
std::vector<CubeHalo> halo_set_cubes(const std::vector<std::int64_t>& sides, int vars);

// Per cube: the field filled with distinct values; for each place, one fused pack checked
// message by message against the host's pack and one fused unpack of distinct buffer contents
// checked from a download of the field, then both timed (warm-up, then timed runs). Sets in
// cube order, then pinned before device, pack before unpack. Throws on a wrong result or a
// kernel failure, naming the message, the cube and the place. Prints one line per cube.
// Collective over `comm`: every rank runs the same sets, and each run starts after a barrier, so
// that ranks sharing a GPU share it as in an exchange.
std::vector<TimedHaloSet> measure_halo_sets(const std::vector<CubeHalo>& cubes,
                                            const MeasureSettings& settings, MPI_Comm comm,
                                            int rank);

// Collective over `comm`, like gather_samples.
void gather_halo_set_samples(MPI_Comm comm, std::vector<TimedHaloSet>& sets, int iterations);

struct FusedFit {
  MessageWork work = MessageWork::pack;
  BufferPlace place = BufferPlace::pinned;
  model::PostalFit fit;  // alpha: latency, beta: seconds per byte of one rank's halo
  int sharers = 1;       // ranks that shared each GPU while timed

  std::string name() const;  // e.g. "pack_pinned", the table file's key
  double latency_s() const { return fit.params.alpha; }
  // The GPU's throughput, which its sharers divided among them: the model charges a rank the
  // bytes of every rank sharing its GPU (docs/model.md, "Prediction per strategy").
  double bytes_per_s() const { return sharers / fit.params.beta; }
};

// One fit per work and place (pack_pinned, unpack_pinned, pack_device, unpack_device) over the
// sets' slowest-rank medians; empty without sets. Throws std::invalid_argument when a fit is
// impossible (fewer than 2 cubes, a median not > 0). `sharers`: ranks per GPU while the sets were
// timed.
std::vector<FusedFit> fit_halo_sets(const std::vector<TimedHaloSet>& sets, int sharers);

}  // namespace haloflag::bench
