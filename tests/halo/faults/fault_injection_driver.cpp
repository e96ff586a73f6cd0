// A halo exchange job in which one rank dies in the middle of an exchange; run under mpiexec by
// fault_injection_process_test:
//
//   halo_fault_injection_driver <strategy> <timeout_ms> <dying rank> <exchange number> [exit|kill]
//
// Every rank exchanges over a periodic cube on the backend HALOFLAG_TEST_BACKEND names (the host
// backend when unset; a GPU backend binds one GPU per rank). The dying rank starts the given
// exchange and leaves the process at once, as a crash would (no MPI_Finalize, no destructors,
// nothing sent): with std::_Exit(3), or killed by SIGKILL. Each other rank prints the outcome of
// that exchange, every line prefixed by "[rank R] " so that lines of different ranks can be
// told apart. Strategy::embedded runs each exchange as the whole exchange from a kernel of the
// test's own (whole_exchange_kernel.hpp) that starts it itself, the host calling only
// started_on_device and finish(); the dying rank dies while that kernel runs exchange N (every
// peer must be over node or self). On a GPU it then drops the Exchange (which stops its kernels and closes its
// mappings of the dead rank's memory) and runs a kernel, to show that its GPU is still usable.
// Then the survivors meet on a communicator made before the crash and one of them ends the job
// with MPI_Abort (MPI_Finalize would wait for the dead rank forever). Whether the survivors get
// that far depends on the launcher: by default Open MPI and MPICH end the whole job as soon as
// a rank exits without finalising. A GPU backend this run cannot use exits 77 on every rank.
#include <mpi.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/device_clock_offset.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "whole_exchange_kernel.hpp"

namespace {

using namespace haloflag::halo;

constexpr int kCrashExitCode = 3;
constexpr int kSkipExitCode = 77;

struct Arguments {
  Strategy strategy = Strategy::stream_notify;
  std::chrono::milliseconds timeout{0};
  int dying_rank = 0;
  int exchange = 0;  // the exchange the dying rank starts and never finishes
  bool killed = false;  // SIGKILL instead of std::_Exit
};

int parse_number(const char* text, const char* what) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0 || value > 1'000'000) {
    throw std::invalid_argument(std::string(what) + " must be a number from 0 to 1000000, got '" +
                                text + "'");
  }
  return static_cast<int>(value);
}

Arguments parse_arguments(int argc, char** argv, int size) {
  if (argc != 5 && argc != 6) {
    throw std::invalid_argument(
        "usage: halo_fault_injection_driver <strategy> <timeout_ms> <dying rank> <exchange> "
        "[exit|kill]");
  }
  Arguments arguments;
  arguments.strategy = parse_strategy(argv[1]);
  arguments.timeout = std::chrono::milliseconds(parse_number(argv[2], "timeout_ms"));
  arguments.dying_rank = parse_number(argv[3], "dying rank");
  arguments.exchange = parse_number(argv[4], "exchange");
  if (arguments.dying_rank >= size) {
    throw std::invalid_argument("dying rank " + std::to_string(arguments.dying_rank) +
                                " is not below the " + std::to_string(size) + " ranks of the job");
  }
  if (arguments.timeout.count() < 1) throw std::invalid_argument("timeout_ms must be at least 1");
  if (arguments.exchange < 1) throw std::invalid_argument("exchange must be at least 1");
  if (argc == 6) {
    const std::string how = argv[5];
    if (how != "exit" && how != "kill") {
      throw std::invalid_argument("the way to die must be exit or kill, got '" + how + "'");
    }
    arguments.killed = how == "kill";
  }
  return arguments;
}

// Writes `text` with every line prefixed by "[rank R] ", in one call so lines stay together.
void print_as_rank(int rank, const std::string& text) {
  std::istringstream lines(text);
  std::string prefixed;
  for (std::string line; std::getline(lines, line);) {
    prefixed += "[rank " + std::to_string(rank) + "] " + line + "\n";
  }
  std::fputs(prefixed.c_str(), stderr);
  std::fflush(stderr);
}

// One exchange: run(), or for Strategy::embedded the test's kernel starting it from the GPU.
void run_exchange(Exchange& exchange, const ExchangeOptions& options) {
  if (options.strategy != Strategy::embedded) {
    exchange.run();
    return;
  }
  const std::uint64_t epoch = exchange.epoch() + 1;
  exchange.started_on_device(epoch);
  haloflag::test::WholeExchangeKernel kernel(options.backend, exchange.device_plan(), epoch, 1);
  exchange.finish();  // throws on a failed wait; the kernel's own waits end by then
  if (!kernel.wait()) {
    throw ExchangeError(haloflag::ErrorKind::peer,
                        "the whole-exchange kernel stopped on a failed wait, but exchange " +
                            std::to_string(epoch) + " finished on the host");
  }
}

// The dying rank's last act: it starts exchange `number` (for embedded, its kernel runs it).
void start_and_die(Exchange& exchange, const ExchangeOptions& options, const Arguments& arguments,
                   int rank) {
  if (options.strategy == Strategy::embedded) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    exchange.started_on_device(epoch);
    // Left running: the process ends under it.
    (void)new haloflag::test::WholeExchangeKernel(options.backend, exchange.device_plan(), epoch,
                                                  1);
  } else {
    exchange.start();
  }
  print_as_rank(rank, std::string(arguments.killed ? "is killed" : "exits") +
                          " in the middle of exchange " + std::to_string(arguments.exchange));
  if (arguments.killed) std::raise(SIGKILL);
  std::_Exit(kCrashExitCode);
}

// The survivors' part after the crash: the outcome of the exchange the dying rank left.
std::string survive(Exchange& exchange, const ExchangeOptions& options, int number) {
  const auto started = std::chrono::steady_clock::now();
  try {
    run_exchange(exchange, options);
  } catch (const ExchangeError& error) {
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - started;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", waited.count());
    return "exchange " + std::to_string(number) + " failed after " + seconds +
           " s: " + error.what();
  }
  return "exchange " + std::to_string(number) + " completed";
}

// After the Exchange is gone: a kernel runs on this rank's GPU, and the fields still copy.
std::string gpu_after(haloflag::notify::Backend backend, DeviceFields& fields, HostField& host) {
  try {
    const auto offset = haloflag::notify::measure_device_clock_offset(backend, 4);
    fields.upload(host);
    fields.download(host);
    return "GPU usable after the failure: a kernel ran (clock offset measured within " +
           std::to_string(offset.uncertainty_ns) + " ns) and the fields copied";
  } catch (const std::exception& error) {
    return std::string("GPU not usable after the failure: ") + error.what();
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Arguments arguments;
  try {
    arguments = parse_arguments(argc, argv, size);
  } catch (const std::exception& error) {
    if (rank == 0) std::fprintf(stderr, "halo_fault_injection_driver: %s\n", error.what());
    MPI_Finalize();
    return 2;
  }
  // Every rank sees the same environment, so all of them skip or none.
  if (const std::string& why = haloflag::test::backend_unavailable(); !why.empty()) {
    if (rank == 0) std::printf("SKIP: %s\n", why.c_str());
    MPI_Finalize();
    return kSkipExitCode;
  }
  const bool dies = rank == arguments.dying_rank;
  MPI_Comm survivors = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, dies ? MPI_UNDEFINED : 0, rank, &survivors);

  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = size;
  spec.periodic = {true, true, true};
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, rank);
  ExchangeOptions options;
  options.strategy = arguments.strategy;
  options.backend = haloflag::test::test_backend();
  options.timeout = arguments.timeout;
  haloflag::test::apply_test_transport(options);
  DeviceFields fields(options.backend, verifier.field_extent(), verifier.vars());
  HostField host(verifier.field_extent(), verifier.vars());

  std::string outcome;
  try {
    Exchange exchange(geometry, fields.view(), options);
    for (int number = 1; number < arguments.exchange; ++number) {
      verifier.fill(host, exchange.epoch() + 1);
      fields.upload(host);
      run_exchange(exchange, options);
      fields.download(host);
      const std::string wrong = verifier.check(host, exchange.epoch());
      if (!wrong.empty()) throw ExchangeError(haloflag::ErrorKind::peer, "exchange " + std::to_string(number) + ": " + wrong);
    }
    if (dies) start_and_die(exchange, options, arguments, rank);
    outcome = survive(exchange, options, arguments.exchange);
    // Over the node transport the dead rank's kernels may have delivered that exchange before
    // it died (its CPU takes no part): the next one, which it never starts, must fail.
    if (outcome.ends_with("completed")) {
      print_as_rank(rank, outcome);
      outcome = survive(exchange, options, arguments.exchange + 1);
    }
  } catch (const std::exception& error) {
    outcome = std::string("failed before the crash: ") + error.what();
  }
  print_as_rank(rank, outcome);
  if (options.backend != haloflag::notify::Backend::host) {
    print_as_rank(rank, gpu_after(options.backend, fields, host));
  }
  // Give the launcher time to forward every survivor's lines before MPI_Abort tears the job
  // down: MPICH's launcher once dropped the last lines of the rank that called it.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  MPI_Barrier(survivors);
  int survivor_rank = 0;
  MPI_Comm_rank(survivors, &survivor_rank);
  if (survivor_rank == 0) MPI_Abort(MPI_COMM_WORLD, 1);
  // MPI_Abort ends this process too; should it not, leave without waiting for the dead rank.
  std::this_thread::sleep_for(std::chrono::seconds(30));
  std::_Exit(1);
}
