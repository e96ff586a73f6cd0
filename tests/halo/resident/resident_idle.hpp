// Test support for Strategy::resident's idle exit (ExchangeOptions::idle_exit): a resident
// Exchange over a small periodic geometry with fields of its own, run in either form (run(), or
// start(stream) and wait(stream) on a stream of its own: a notify::HostQueue on the host backend,
// a non-blocking GPU stream on the others), every cell of each exchange checked by the
// ExchangeVerifier. Used by resident_idle_exit_mpi_test.cpp (host backend, CI) and
// resident_coexistence_mpi_test.cpp (a GPU beside the program's own device-wide work).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"
#include "test_stream.hpp"

namespace haloflag::test {

// How each exchange is started: by the host (run()), or ordered on the test's stream.
enum class StartForm { host, stream };

inline std::string form_name(StartForm form) {
  return form == StartForm::host ? "run()" : "start(stream)/wait(stream)";
}

// "node" for Transport::automatic (every peer on this host's node, or the rank itself), else
// the transport's name.
inline std::string transport_name(halo::Transport transport) {
  return transport == halo::Transport::automatic ? std::string("node")
                                                 : std::string(halo::to_string(transport));
}

// A periodic cube of 8^3 cells per rank, 2 variables, 26 neighbours.
inline halo::Geometry idle_test_geometry() {
  halo::GeometrySpec spec;
  const int ranks = world_size();
  spec.global_size = {8 * ranks, 8, 8};
  spec.ranks = ranks;
  spec.periodic = {true, true, true};
  spec.vars = 2;
  return halo::Geometry(spec);
}

// Strategy::resident with the given idle window; every wait's deadline 20 s, so a start or a
// device-wide wait that hangs on the kernels shows as a 20 s step, not as a test that never ends.
inline halo::ExchangeOptions resident_options(notify::Backend backend, halo::Transport transport,
                                              std::chrono::nanoseconds idle_exit) {
  halo::ExchangeOptions options;
  options.strategy = halo::Strategy::resident;
  options.backend = backend;
  options.transport = transport;
  options.progress = halo::Progress::caller;
  options.timeout = std::chrono::seconds(20);
  options.idle_exit = idle_exit;
  options.advanced.launch.message_threads = 128;
  return options;
}

// A resident Exchange with its fields and stream. exchange() runs the next exchange in the
// chosen form, the fields written with that epoch's values first, and returns once it is
// complete; check() then compares every cell with what the neighbours own.
class VerifiedResident {
 public:
  VerifiedResident(const halo::Geometry& geometry, const halo::ExchangeOptions& options,
                   StartForm form)
      : form_(form),
        backend_(options.backend),
        verifier_(geometry, world_rank()),
        device_(options.backend, verifier_.field_extent(), verifier_.vars()),
        host_(verifier_.field_extent(), verifier_.vars()),
        stream_(options.backend),
        exchange_(geometry, device_.view(), options) {}

  // Exchange epoch() + 1, complete when this returns (the stream form synchronises its stream).
  void exchange() { exchange(nullptr); }

  // The form of the next exchanges: one Exchange may take both, each complete before the next.
  void set_form(StartForm form) { form_ = form; }

  // The stream form on the host backend, its start enqueued behind `before` on the queue: a
  // start promised now that the stream reaches only once `before` has run.
  void exchange_behind(std::function<void()> before) {
    if (form_ != StartForm::stream || backend_ != notify::Backend::host) {
      throw std::logic_error("exchange_behind: the stream form on the host backend only");
    }
    exchange(&before);
  }

  // "" when every cell holds what it should after the last exchange; else which exchange and
  // the verifier's report.
  std::string check() {
    device_.download(host_);
    const std::string report = verifier_.check_all(host_, exchange_.epoch());
    return report.empty() ? report
                          : "exchange " + std::to_string(exchange_.epoch()) + ": " + report;
  }

  std::string exchange_and_check() {
    exchange();
    return check();
  }

  halo::Exchange& get() { return exchange_; }
  std::uint64_t relaunches() const { return exchange_.relaunches(); }
  // Waits until the stream has run everything enqueued on it: after a failed exchange, before
  // the Exchange goes, so that no store of the stream's lands in memory already freed.
  void drain_stream() { stream_.synchronize(); }
  std::uint64_t epoch() const { return exchange_.epoch(); }
  StartForm form() const { return form_; }

 private:
  void exchange(const std::function<void()>* before) {
    const std::uint64_t epoch = exchange_.epoch() + 1;
    verifier_.fill(host_, epoch);
    device_.upload(host_);
    if (form_ == StartForm::host) {
      exchange_.run();
      return;
    }
    if (before != nullptr) stream_.enqueue_host_work(*before);
    exchange_.start(stream_.handle());
    exchange_.wait(stream_.handle());
    // The caller drives the MPI peers (Progress::caller) until the exchange is complete.
    while (!exchange_.progress()) std::this_thread::yield();
    stream_.synchronize();
    exchange_.finish();
  }

  StartForm form_;
  notify::Backend backend_;
  halo::ExchangeVerifier verifier_;
  halo::DeviceFields device_;
  halo::HostField host_;
  TestStream stream_;
  halo::Exchange exchange_;  // last: goes first, before its stream and fields
};

// Seconds since `started`.
inline double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace haloflag::test
