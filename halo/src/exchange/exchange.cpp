#include "haloflag/halo/exchange.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exchange/exchange_errors.hpp"
#include "exchange/exchange_progress.hpp"
#include "deadline_collectives.hpp"
#include "exchange/exchange_setup.hpp"
#include "field_set_check.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/notify/stream_flag_ops.hpp"
#include "tuning/work_order_tuner.hpp"

namespace haloflag::halo {

// The public calls' checks and their order of work, over the parts that set-up built
// (exchange_setup.hpp), the CPU side that runs the exchanges (exchange_progress.hpp) and the
// record of failure (exchange_errors.hpp).
class Exchange::Impl {
 public:
  Impl(const ExchangeConfig& config, const kernels::FieldSet& fields, const ExchangeOptions& options)
      : parts_(config, fields, options), errors_(parts_), progress_(parts_, errors_) {
    if (parts_.options.progress == Progress::thread) progress_.start_thread();
  }

  ~Impl() { tear_down(); }

  // start() and start(fields): the exchange begins now.
  void start(const kernels::FieldSet* fields) {
    progress_.check_usable("start()");
    progress_.throw_if_aborted_idle();
    if (progress_.running()) {
      throw ExchangeError(ErrorKind::usage, prefix() + "start() while the exchange is still in progress");
    }
    const std::uint32_t slot = field_slot("start(fields)", fields);
    const std::uint64_t next = epoch() + 1;
    progress_.guarded([&] { parts_.resources->select_fields(slot); });
    progress_.start_by_host(next);
  }

  // start(stream) and start(stream, fields): the caller's stream starts the exchange.
  void start(notify::WorkStream stream, const kernels::FieldSet* fields) {
    progress_.check_usable("start(stream)");
    check_stream_form("start(stream)", stream);
    progress_.throw_if_aborted_idle();
    if (waited_ != epoch()) {
      throw ExchangeError(ErrorKind::usage, prefix() + "start(stream) before wait(stream) or finish() of exchange " +
                          std::to_string(epoch()));
    }
    const std::uint32_t slot = field_slot("start(stream, fields)", fields);
    const std::uint64_t next = epoch() + 1;
    progress_.guarded([&] {
      // Kernels that left the GPU idle come back first; the stream's stores then start them.
      const bool kernels_as_they_are = parts_.strategy->bring_back(next);
      enqueue_start(stream, slot, next, kernels_as_they_are);
    });
    progress_.publish(next);
  }

  // The caller's kernel started exchanges up to `last` itself (embedded_exchange_start): the CPU
  // side follows them to `last` (for peers over MPI it runs each exchange's state machine in
  // turn, in progress() and finish() or the progress thread), and finish() waits for it.
  void started_on_device(std::uint64_t last) {
    progress_.check_usable("started_on_device()");
    progress_.throw_if_aborted_idle();
    if (parts_.options.strategy != Strategy::embedded) {
      throw ExchangeError(ErrorKind::usage, prefix() + "started_on_device(): only Strategy::embedded's kernel "
                          "starts exchanges itself (haloflag/kernels/embedded_exchange.hpp)");
    }
    if (last < epoch()) {
      throw ExchangeError(ErrorKind::usage, prefix() + "started_on_device(" + std::to_string(last) +
                          "): exchange " + std::to_string(epoch()) + " was started already");
    }
    progress_.publish(last);
  }

  bool can_start_on_device() const {
    return parts_.options.strategy == Strategy::embedded;
  }

  void wait(notify::WorkStream stream) {
    progress_.check_usable("wait(stream)");
    check_stream_form("wait(stream)", stream);
    progress_.throw_if_aborted_idle();
    const std::uint64_t last = epoch();
    const RankMessages& messages = parts_.messages;
    // A rank without messages has nothing to wait for (and no block would count).
    if (last > waited_ && !(messages.sends.empty() && messages.recvs.empty())) {
      progress_.guarded([&] {
        // The kernels release the wait when they end; the host queue's own deadline comes later.
        notify::enqueue_wait(parts_.options.backend, stream, parts_.resources->plan.exchange_done,
                             last, 2 * parts_.options.timeout + std::chrono::seconds(1),
                             "exchange_done (rank " + std::to_string(parts_.rank) + ", exchange " +
                                 std::to_string(last) + ")");
      });
    }
    waited_ = last;
  }

  bool progress() { return progress_.progress(); }

  void finish() {
    progress_.await(epoch());
    waited_ = epoch();
  }

  void await(std::uint64_t exchange) { progress_.await(exchange); }

  // May be called from any thread: only the abort flag (which every wait reads) and the reason
  // are touched; the Exchange's own thread throws at its next call.
  void abort(std::string reason) { errors_.request_abort(std::move(reason)); }

  std::uint64_t epoch() const { return progress_.epoch(); }
  std::uint64_t relaunches() const { return parts_.strategy->relaunches(); }
  // The last exchange the CPU side completed.
  std::uint64_t completed() const { return progress_.completed(); }
  // A handle waited for `exchange`: a later start(stream) may follow it.
  void mark_waited(std::uint64_t exchange) { waited_ = std::max(waited_, exchange); }
  int rank() const { return parts_.rank; }
  const RankMessages& messages() const { return parts_.messages; }
  std::string launch_description() const {
    return parts_.strategy->launch_description() +
           (progress_.shares_core() ? "; the progress thread shares the caller's one core" : "");
  }
  const ExchangeOptions& options() const { return parts_.options; }
  // Only MPI cuts its messages into pieces.
  std::int64_t mpi_piece_bytes() const {
    std::int64_t bytes = 0;
    for (const auto& transport : parts_.transports) bytes = std::max(bytes, transport->piece_bytes());
    return bytes;
  }
  kernels::DevicePlan device_plan() const {
    // The handle drops the field bank: the caller's kernel picks its fields through it
    // (with_fields).
    return kernels::detail::make_device_plan(parts_.resources->plan, kernels::kUnregisteredFields,
                                             nullptr);
  }

  kernels::DevicePlan device_plan(const kernels::FieldSet& fields) const {
    const std::optional<std::uint32_t> slot = offered_slot(fields);
    return kernels::detail::make_device_plan(
        parts_.resources->plan, slot ? *slot : kernels::kUnregisteredFields, &fields);
  }

  std::uint32_t map_fields(const kernels::FieldSet& fields) {
    progress_.check_usable("map_fields()");
    progress_.throw_if_aborted_idle();
    const Strategy strategy = parts_.options.strategy;
    if (strategy != Strategy::embedded && strategy != Strategy::stream_notify && epoch() != 0) {
      throw ExchangeError(ErrorKind::usage, prefix() + "map_fields() after the first exchange "
                          "needs Strategy::embedded or stream_notify, whose kernels read the "
                          "routes afresh at each launch; " + std::string(to_string(strategy)) +
                          "'s stay on the GPU and may hold them");
    }
    if (progress_.running()) {
      throw ExchangeError(ErrorKind::usage,
                          prefix() + "map_fields() while an exchange is in progress");
    }
    MapRequest mine = registration_of(fields);
    const std::vector<MapRequest::Kind> kinds = detail::all_gather(
        mine.kind, parts_.comm, parts_.options.timeout, "agreeing on map_fields()");
    if (!mine.problem.empty()) {
      throw ExchangeError(ErrorKind::config, prefix() + "map_fields(): " + mine.problem);
    }
    for (std::size_t r = 0; r < kinds.size(); ++r) {
      if (kinds[r] == MapRequest::Kind::refused) {
        throw ExchangeError(ErrorKind::config, prefix() + "map_fields(): rank " +
                                                   std::to_string(r) +
                                                   " refused its fields (its own error says why)");
      }
      if (kinds[r] != kinds.front()) {
        throw ExchangeError(ErrorKind::config,
                            prefix() + "map_fields(): the ranks disagree: rank " +
                                std::to_string(r) + "'s fields are " +
                          (kinds[r] == MapRequest::Kind::mapped_already ? "" : "not ") +
                          "mapped already, rank 0's " +
                          (kinds.front() == MapRequest::Kind::mapped_already ? "" : "not ") +
                          "(call map_fields() with the same sets in the same order everywhere)");
      }
    }
    if (mine.kind == MapRequest::Kind::new_slot) {
      progress_.guarded([&] {
        for (auto& transport : parts_.transports) transport->map_fields(mine.slot, mine.fields);
      });
      offered_slots_ |= 1U << mine.slot;
    }
    return mine.slot;
  }
  const std::vector<PeerTransport>& peer_transports() const { return parts_.peers; }

  const ExchangeTimeline& last_timeline() const {
    if (!parts_.options.trace) {
      throw ExchangeError(ErrorKind::usage, prefix() + "last_timeline() needs ExchangeOptions::trace");
    }
    return parts_.timeline->last();
  }

 private:
  std::string prefix() const { return errors_.prefix(epoch()); }

  // start(stream)'s stores, in the caller's stream's order: the field slot where it changes,
  // then the start of exchange `next`. `relays`: the kernels on the GPU take the start, and the
  // stream may store their relays too (not when some were launched again: the relays are then
  // their new watchers' to store, or a block of the grid that left could take the start).
  void enqueue_start(notify::WorkStream stream, std::uint32_t slot, std::uint64_t next,
                     bool relays) {
    const notify::Backend backend = parts_.options.backend;
    detail::ExchangeResources& resources = *parts_.resources;
    if (slot != resources.selected_slot()) {
      notify::enqueue_store(backend, stream, resources.field_slot_word(), slot);
      resources.fields_selected_on_stream(slot);
    }
    // Without MPI sends no CPU step gates the start: the stream also stores the relay in
    // device memory, so the blocks start without waiting for pack block 0 to poll the host
    // flag over PCIe (docs/design.md, "Stream-ordered exchanges").
    if (resources.plan.send_buffer_free.count == 0 && relays) {
      notify::enqueue_store(backend, stream, resources.plan.pack_start_relay.word(0), next);
      if (resources.plan.pieces.start_relay != nullptr) {
        notify::enqueue_store(backend, stream, resources.plan.pieces.start_relay, next);
      }
    }
    notify::enqueue_store(backend, stream, resources.plan.pack_start.word(0), next);
  }

  // The slot of `fields` when they are registered and were offered to the transports (map_fields).
  std::optional<std::uint32_t> offered_slot(const kernels::FieldSet& fields) const {
    const std::optional<std::uint32_t> slot = parts_.resources->registered_slot(fields);
    if (!slot || ((offered_slots_ >> *slot) & 1U) == 0) return std::nullopt;
    return slot;
  }

  // What map_fields() asks of this rank: its fields checked and registered.
  struct MapRequest {
    enum class Kind : std::int32_t { refused, new_slot, mapped_already };
    Kind kind = Kind::refused;
    std::uint32_t slot = 0;
    kernels::FieldSet fields{};
    std::string problem;
  };

  MapRequest registration_of(const kernels::FieldSet& fields) {
    MapRequest request;
    try {
      request.fields = detail::checked_field_set(fields, parts_.resources->layouts,
                                                 parts_.field_extent, "map_fields()");
      if (const std::optional<std::uint32_t> known = offered_slot(request.fields)) {
        request.kind = MapRequest::Kind::mapped_already;
        request.slot = *known;
      } else {
        request.slot = parts_.resources->field_slot_of(request.fields);
        request.kind = MapRequest::Kind::new_slot;
      }
    } catch (const ConfigError& error) {
      request.problem = error.what();
    }
    return request;
  }

  std::uint32_t field_slot(const char* call, const kernels::FieldSet* fields) {
    if (fields == nullptr) return 0;
    if (parts_.options.strategy == Strategy::embedded) {
      throw ExchangeError(ErrorKind::usage, prefix() + call +
                          ": with Strategy::embedded the caller's kernel picks its fields "
                          "(DevicePlan::with_fields)");
    }
    try {
      return parts_.resources->field_slot_of(
          detail::checked_field_set(*fields, parts_.resources->layouts, parts_.field_extent, call));
    } catch (const ConfigError& error) {
      throw ExchangeError(ErrorKind::usage, prefix() + error.what());
    }
  }

  void check_stream_form(const char* call, notify::WorkStream stream) {
    const ExchangeOptions& options = parts_.options;
    if (options.strategy != Strategy::resident) {
      throw ExchangeError(ErrorKind::usage, prefix() + call +
                          " needs Strategy::resident, whose kernels stay on the GPU and wait "
                          "for the stream's store; " + std::string(to_string(options.strategy)) +
                          " starts its work from the host");
    }
    try {
      notify::check_stream(options.backend, stream);
    } catch (const std::exception& error) {
      throw ExchangeError(ErrorKind::usage, prefix() + call + ": " + error.what());
    }
  }

  // Stops kernels (abort first if an exchange is unfinished), drops MPI requests, frees memory
  // in the order that keeps the kernels' memory alive until they are gone.
  void tear_down() noexcept {
    // The progress thread first: it uses every part.
    if (parts_.resources && progress_.running()) parts_.resources->control.raise_abort();
    progress_.stop_thread();
    parts_.release(progress_.running() || errors_.failed());
  }

  detail::ExchangeParts parts_;
  detail::ExchangeErrors errors_;
  detail::ExchangeProgress progress_;
  std::uint64_t waited_ = 0;  // the last exchange awaited by wait(stream) or finish()
  // Bit s: the FieldSet of slot s was offered to the transports (slot 0 at set-up).
  std::uint32_t offered_slots_ = 1;
};

Exchange::Exchange(const ExchangeConfig& config, const kernels::FieldSet& fields,
                   const ExchangeOptions& options) {
  // Tuning builds Exchanges of its own: tune() and Exchange::tuned() (tune.cpp) do it.
  detail::refuse_automatic_tuning(options);
  impl_ = std::make_shared<Impl>(config, fields, options);
  tuning_ = detail::fixed_tuning(options);
}

Exchange::Exchange(const Geometry& geometry, const kernels::FieldSet& fields,
                   const ExchangeOptions& options)
    : Exchange(make_exchange_config(geometry), fields, options) {}

Exchange::~Exchange() = default;
Exchange::Exchange(Exchange&& other) noexcept = default;
Exchange& Exchange::operator=(Exchange&& other) noexcept = default;

Exchange::Impl& Exchange::impl() const {
  if (!impl_) {
    throw ExchangeError(ErrorKind::usage, "this Exchange was moved from: use the Exchange it was moved to");
  }
  return *impl_;
}

ExchangeHandle Exchange::start() {
  impl().start(nullptr);
  return ExchangeHandle(impl_, impl_->epoch());
}
ExchangeHandle Exchange::start(const kernels::FieldSet& fields) {
  impl().start(&fields);
  return ExchangeHandle(impl_, impl_->epoch());
}
void Exchange::start(notify::WorkStream stream) { impl().start(stream, nullptr); }
void Exchange::start(notify::WorkStream stream, const kernels::FieldSet& fields) {
  impl().start(stream, &fields);
}
void Exchange::wait(notify::WorkStream stream) { impl().wait(stream); }
bool Exchange::progress() { return impl().progress(); }
void Exchange::finish() { impl().finish(); }
void Exchange::started_on_device(std::uint64_t last) { impl().started_on_device(last); }
bool Exchange::can_start_on_device() const { return impl().can_start_on_device(); }
void Exchange::run() {
  impl().start(nullptr);
  impl().finish();
}
void Exchange::abort(std::string reason) { impl().abort(std::move(reason)); }
std::uint64_t Exchange::epoch() const { return impl().epoch(); }
std::uint64_t Exchange::relaunches() const { return impl().relaunches(); }
Strategy Exchange::strategy() const { return impl().options().strategy; }
notify::Backend Exchange::backend() const { return impl().options().backend; }
int Exchange::rank() const { return impl().rank(); }
const RankMessages& Exchange::messages() const { return impl().messages(); }
std::string Exchange::launch_description() const { return impl().launch_description(); }
const ExchangeTimeline& Exchange::last_timeline() const { return impl().last_timeline(); }
kernels::DevicePlan Exchange::device_plan() const { return impl().device_plan(); }
kernels::DevicePlan Exchange::device_plan(const kernels::FieldSet& fields) const {
  return impl().device_plan(fields);
}
std::uint32_t Exchange::map_fields(const kernels::FieldSet& fields) {
  return impl().map_fields(fields);
}
const std::vector<PeerTransport>& Exchange::peer_transports() const {
  return impl().peer_transports();
}
std::int64_t Exchange::mpi_piece_bytes() const { return impl().mpi_piece_bytes(); }
const TuningReport& Exchange::tuning() const {
  (void)impl();  // a moved-from Exchange has none
  return tuning_;
}

std::shared_ptr<Exchange::Impl> ExchangeHandle::lock() const {
  std::shared_ptr<Exchange::Impl> impl = impl_.lock();
  if (!impl) {
    throw ExchangeError(ErrorKind::usage,
                        epoch_ == 0 ? "this ExchangeHandle refers to no exchange (default-constructed)"
                                    : "the Exchange of exchange " + std::to_string(epoch_) +
                                          "'s handle was destroyed");
  }
  return impl;
}

bool ExchangeHandle::test() {
  const std::shared_ptr<Exchange::Impl> impl = lock();
  if (impl->completed() >= epoch_) return true;
  (void)impl->progress();
  return impl->completed() >= epoch_;
}

void ExchangeHandle::wait() {
  const std::shared_ptr<Exchange::Impl> impl = lock();
  impl->await(epoch_);
  impl->mark_waited(epoch_);
}

}  // namespace haloflag::halo
