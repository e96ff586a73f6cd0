// _core.Exchange and _core.Handle: halo::Exchange with a close() that ends it before Python's
// garbage collector would, and with the GIL released wherever the call may wait, so other Python
// threads run meanwhile. Arguments arrive checked and converted by haloflag/exchange.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"

namespace nb = nanobind;

namespace haloflag::python {
namespace {

/// The options as exchange.py passes them: names as the C++ parse functions spell them, and
/// seconds (idle_exit_s infinite for "never").
struct OptionNames {
  std::string strategy, transport, backend, progress;
  double timeout_s = 30.0;
  double idle_exit_s = std::chrono::duration<double>(halo::kDefaultIdleExit).count();
};

/// idle_exit from seconds: an infinite window, or one near what nanoseconds hold (over 146
/// years, where the conversion could overflow), is kIdleExitNever.
std::chrono::nanoseconds idle_exit_of(double seconds) {
  const double far_s = std::chrono::duration<double>(halo::kIdleExitNever).count() / 2;
  if (!std::isfinite(seconds) || seconds >= far_s) return halo::kIdleExitNever;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(seconds));
}

halo::ExchangeOptions make_options(std::int64_t comm_f, const OptionNames& names) {
  halo::ExchangeOptions options;
  options.strategy = halo::parse_strategy(names.strategy);
  options.transport = halo::parse_transport(names.transport);
  options.backend = notify::parse_backend(names.backend);
  options.progress = halo::parse_progress(names.progress);
  options.comm = MPI_Comm_f2c(static_cast<MPI_Fint>(comm_f));
  options.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(names.timeout_s));
  options.idle_exit = idle_exit_of(names.idle_exit_s);
  return options;
}

/// The geometry's decomposition with one variable per field, each of its own element size.
halo::Geometry with_variables(const halo::Geometry& geometry, const std::vector<int>& bytes) {
  halo::GeometrySpec spec = geometry.spec();
  spec.vars = static_cast<int>(bytes.size());
  spec.element_bytes = bytes.empty() ? 8 : bytes.front();
  spec.variable_bytes = bytes;
  return halo::Geometry(spec);
}

/// An Exchange that close() ends; every call after it is refused as usage.
class ClosableExchange {
 public:
  ClosableExchange(const halo::Geometry& geometry, const kernels::FieldSet& fields,
                   const halo::ExchangeOptions& options)
      : exchange_(std::in_place, geometry, fields, options) {}

  halo::Exchange& get() {
    if (!exchange_) throw halo::ExchangeError(ErrorKind::usage, "this Exchange is closed");
    return *exchange_;
  }
  bool closed() const { return !exchange_.has_value(); }
  void close() { exchange_.reset(); }

 private:
  std::optional<halo::Exchange> exchange_;
};

notify::WorkStream stream_of(std::uintptr_t handle) {
  return notify::WorkStream(reinterpret_cast<void*>(handle));
}

void bind_handle(nb::module_& module) {
  nb::class_<halo::ExchangeHandle>(module, "Handle")
      .def_prop_ro("epoch", &halo::ExchangeHandle::epoch)
      .def("wait", &halo::ExchangeHandle::wait, nb::call_guard<nb::gil_scoped_release>())
      .def("test", &halo::ExchangeHandle::test);
}

}  // namespace

void bind_exchange(nb::module_& module) {
  bind_handle(module);
  // ExchangeOptions::idle_exit's default, in seconds, for exchange.py's default argument.
  module.attr("DEFAULT_IDLE_EXIT_S") =
      std::chrono::duration<double>(halo::kDefaultIdleExit).count();
  // The names alone, checked before the collective set-up, so that a rank that misspells one
  // fails with the others instead of leaving them waiting.
  module.def("check_options", [](const std::string& strategy, const std::string& transport,
                                 const std::string& backend, const std::string& progress) {
    (void)make_options(0, {strategy, transport, backend, progress, 1.0});
  });
  using X = ClosableExchange;
  nb::class_<X>(module, "Exchange")
      .def("__init__",
           [](X* self, const halo::Geometry& geometry, const std::vector<int>& variable_bytes,
              const kernels::FieldSet& fields, std::int64_t comm_f, const std::string& strategy,
              const std::string& transport, const std::string& backend, double timeout_s,
              const std::string& progress, double idle_exit_s) {
             const halo::ExchangeOptions options = make_options(
                 comm_f, {strategy, transport, backend, progress, timeout_s, idle_exit_s});
             const halo::Geometry full = with_variables(geometry, variable_bytes);
             nb::gil_scoped_release release;  // collective: the other ranks may take a while
             new (self) X(full, fields, options);
           })
      .def("run", [](X& x) { x.get().run(); }, nb::call_guard<nb::gil_scoped_release>())
      .def("start", [](X& x) { return x.get().start(); })
      .def("start", [](X& x, const kernels::FieldSet& f) { return x.get().start(f); })
      .def("start_stream", [](X& x, std::uintptr_t s) { x.get().start(stream_of(s)); })
      .def("start_stream",
           [](X& x, std::uintptr_t s, const kernels::FieldSet& f) { x.get().start(stream_of(s), f); })
      .def("wait_stream", [](X& x, std::uintptr_t s) { x.get().wait(stream_of(s)); })
      .def("progress", [](X& x) { return x.get().progress(); })
      .def("finish", [](X& x) { x.get().finish(); }, nb::call_guard<nb::gil_scoped_release>())
      .def("abort", [](X& x, const std::string& reason) { x.get().abort(reason); })
      .def("close", &X::close, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("closed", &X::closed)
      .def_prop_ro("epoch", [](X& x) { return x.get().epoch(); })
      .def_prop_ro("relaunches", [](X& x) { return x.get().relaunches(); })
      .def_prop_ro("strategy", [](X& x) { return std::string(halo::to_string(x.get().strategy())); })
      .def_prop_ro("backend", [](X& x) { return std::string(notify::to_string(x.get().backend())); })
      .def_prop_ro("transports", [](X& x) { return halo::describe(x.get().peer_transports()); });
}

}  // namespace haloflag::python
