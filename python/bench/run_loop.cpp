// The C++ side of scripts/bench/bench_python_overhead.sh: a loop of Exchange::run() on one geometry,
// timed exactly as python/bench/run_loop.py times its Python loop, so the two differ only in the
// language the loop is written in.
//   mpiexec -n 2 haloflag_run_loop Z Y X ITERATIONS WARMUP ROUNDS BACKEND(auto|host)
// Prints one JSON line per round: the slowest rank's time per exchange.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/gpu_binding.hpp"

namespace {

namespace hh = haloflag::halo;

/// One round: `warmup` untimed exchanges, then `iterations` timed ones; seconds per exchange.
double time_round(hh::Exchange& exchange, long iterations, long warmup) {
  for (long i = 0; i < warmup; ++i) exchange.run();
  MPI_Barrier(MPI_COMM_WORLD);
  const double began = MPI_Wtime();
  for (long i = 0; i < iterations; ++i) exchange.run();
  const double mine = (MPI_Wtime() - began) / static_cast<double>(iterations);
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int run(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s Z Y X ITERATIONS WARMUP ROUNDS BACKEND(auto|host)\n", argv[0]);
    return 2;
  }
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  hh::GeometrySpec spec;
  spec.global_size = {std::atol(argv[3]), std::atol(argv[2]), std::atol(argv[1])};  // x, y, z
  spec.ranks = ranks;
  spec.periodic = {true, true, true};
  const hh::Geometry geometry(spec);
  hh::ExchangeOptions options;
  options.strategy = hh::Strategy::resident;
  options.backend = haloflag::notify::parse_backend(argv[7]);
  if (options.backend != haloflag::notify::Backend::host) hh::bind_gpu(MPI_COMM_WORLD);
  hh::DeviceFields fields(options.backend, geometry.subdomain(rank).field_extent, 1);
  hh::Exchange exchange(geometry, fields.view(), options);
  const std::string backend(haloflag::notify::to_string(options.backend));
  for (long round = 0; round < std::atol(argv[6]); ++round) {
    const double seconds = time_round(exchange, std::atol(argv[4]), std::atol(argv[5]));
    if (rank == 0) {
      std::printf("{\"loop\": \"cpp\", \"round\": %ld, \"backend\": \"%s\", \"ranks\": %d, "
                  "\"us_per_exchange\": %.4f}\n", round, backend.c_str(), ranks, seconds * 1e6);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "haloflag_run_loop: %s\n", error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
