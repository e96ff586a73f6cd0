// Verifying and timing every message shape on this rank's GPU (or the host backend), and
// bringing every rank's samples to rank 0.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/notify/backend.hpp"
#include "message_shapes.hpp"
#include "one_message_kernel.hpp"

namespace haloflag::bench {

struct MeasureSettings {
  notify::Backend backend = notify::Backend::host;
  kernels::LaunchSettings launch;
  std::chrono::nanoseconds timeout{0};
  int warmup = 0;
  int iterations = 1;
};

struct TimedShape {
  std::string source;  // ShapeSource::name
  halo::Index3 field_extent{0, 0, 0};
  int vars = 1;
  MessageWork work = MessageWork::pack;
  MessageShape shape;
  // Microseconds per timed run, one list per rank (after gather_samples on rank 0; before it,
  // the measuring rank's own list only).
  std::vector<std::vector<double>> block_us;
  std::vector<std::vector<double>> launch_us;
};

// For each source: fields filled with distinct values; each pack shape checked against a host
// pack, then timed; each unpack shape run on a distinct buffer, all checked from one download of
// the field, then timed. Shapes in source order, packs before unpacks. Throws on a wrong result
// or a kernel failure, naming the message. Prints one line per source to stdout.
std::vector<TimedShape> measure_shapes(const std::vector<ShapeSource>& sources,
                                       const MeasureSettings& settings, int rank);

// Collective over `comm`: every rank passes the same number of lists of `iterations` samples, in
// the same order; rank 0 gets, per list, one list per rank in rank order (the others nothing).
// `what` names the samples in errors.
std::vector<std::vector<std::vector<double>>> gather_sample_lists(
    MPI_Comm comm, const std::vector<const std::vector<double>*>& lists, int iterations,
    const char* what);

// Collective over `comm`: every rank passes its measurements of the same shapes; on rank 0 each
// shape ends up with one sample list per rank, in rank order.
void gather_samples(MPI_Comm comm, std::vector<TimedShape>& shapes, int iterations);

}  // namespace haloflag::bench
