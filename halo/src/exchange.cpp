#include "haloflag/halo/exchange.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "cpu_cores.hpp"
#include "exchange_resources.hpp"
#include "field_set_check.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/notify/stream_flag_ops.hpp"
#include "message_names.hpp"
#include "strategies/exchange_strategy.hpp"
#include "strategies/work_order_tuner.hpp"
#include "timeline_recorder.hpp"
#include "transports/mpi/message_pieces.hpp"
#include "transports/host_transport.hpp"
#include "transports/mpi/message_requests.hpp"
#include "transports/mpi/mpi_host_transport.hpp"
#include "transports/mpi/peer_handshake.hpp"
#include "transports/nccl/nccl_host_transport.hpp"
#include "transports/nccl/peer_spans.hpp"
#include "transports/node/node_host_transport.hpp"
#include "transports/node/node_transport.hpp"

namespace haloflag::halo {

namespace {

using Clock = std::chrono::steady_clock;

MPI_Comm duplicate(MPI_Comm comm) {
  MPI_Comm copy = MPI_COMM_NULL;
  if (MPI_Comm_dup(comm, &copy) != MPI_SUCCESS) throw ExchangeError(ErrorKind::mpi, "MPI_Comm_dup failed");
  // Errors come back as codes, so they can be reported with the message they concern.
  MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
  return copy;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
  }
}

// The progress thread calls MPI while the caller's thread may call it too.
void check_thread_level(const ExchangeOptions& options) {
  if (options.progress != Progress::thread) return;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    throw ConfigError(std::string("progress = thread needs MPI initialised with "
                                  "MPI_THREAD_MULTIPLE (MPI_Init_thread): its progress thread "
                                  "calls MPI while the caller's thread may too; this MPI was "
                                  "initialised with ") +
                      thread_level_name(provided));
  }
}

// The strategy and transport can run here; ConfigError naming why not. The nccl strategy moves
// every message through the nccl transport, which has no device route for the other strategies'
// kernels. Checked on every rank before anything else is set up, so every rank refuses alike.
void check_strategy(const ExchangeOptions& options) {
  if (options.transport == Transport::nccl && options.strategy != Strategy::nccl) {
    throw ConfigError("strategy " + std::string(to_string(options.strategy)) +
                      " needs a device route to every peer (its kernels place and signal each "
                      "message); transport nccl has none: its transfers are NCCL's own, "
                      "stream-ordered. Use strategy nccl, or transport auto, mpi or node");
  }
  const std::string unavailable = strategy_unavailable(options.strategy, options.backend);
  if (!unavailable.empty()) throw ConfigError(unavailable);
  if (options.strategy == Strategy::nccl && options.transport == Transport::node) {
    throw ConfigError("the nccl strategy moves every message through NCCL: transport node does "
                      "not apply (auto, mpi or nccl)");
  }
}

// The transport of every peer is NCCL (Strategy::nccl).
bool all_over_nccl(const ExchangeOptions& options) {
  return options.strategy == Strategy::nccl || options.transport == Transport::nccl;
}

// The options the node transport's set-up sees: under nccl no peer is the node transport's.
ExchangeOptions node_transport_options(const ExchangeOptions& options) {
  ExchangeOptions node = options;
  if (all_over_nccl(options)) node.transport = Transport::mpi;
  return node;
}

// This communicator's MPI_TAG_UB.
int tag_upper_bound(MPI_Comm comm) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &found);
  return found && value != nullptr ? *value : 32767;
}

// The peers whose messages MPI carries, of those `messages` name: every one with transport mpi,
// those off this rank's node with auto, none with node or under nccl.
std::set<int> peers_over_mpi(const RankMessages& messages, const ExchangeOptions& options,
                             const std::set<int>& node_ranks) {
  std::set<int> peers;
  if (options.transport == Transport::node || all_over_nccl(options)) return peers;
  for (const auto* list : {&messages.sends, &messages.recvs}) {
    for (const Message& m : *list) {
      if (options.transport == Transport::mpi || !node_ranks.contains(m.peer)) peers.insert(m.peer);
    }
  }
  return peers;
}

// Only the flag strategies' kernels signal piece by piece.
std::int64_t requested_piece_bytes(const ExchangeOptions& options) {
  return uses_flags(options.strategy) ? std::max<std::int64_t>(options.advanced.mpi_piece_bytes, 0) : 0;
}

// How long the progress thread polls for the next exchange before it sleeps: a start() soon
// after the last exchange is picked up at once, an idle Exchange costs no core.
constexpr auto kProgressSpin = std::chrono::milliseconds(2);

// A caller asleep in finish() beside a progress thread on its one core wakes at least this often
// to look for itself; the progress thread wakes it sooner, when an exchange completes or fails.
constexpr auto kCallerSleepSlice = std::chrono::milliseconds(1);

}  // namespace

class Exchange::Impl {
 public:
  Impl(const ExchangeConfig& config, const kernels::FieldSet& fields, const ExchangeOptions& options)
      : options_(options), comm_(duplicate(options.comm)) {
    MPI_Comm_rank(comm_, &rank_);
    // Which peers MPI carries decides which messages go in pieces, before anything is sized.
    agree_on("find the ranks of its node", [&] {
      node_ranks_ = detail::ranks_on_node(comm_,
                                          options_.backend != notify::Backend::host,
                                          options_.timeout);
    });
    // Peers must cut alike: pieces as many times larger as any rank's GPU needs. (Piece sizes
    // asked differently stay different: the handshake names them.)
    std::int64_t growth = 1;
    agree_on("size its MPI pieces", [&] { growth = piece_growth_to_fit(config); });
    MPI_Allreduce(MPI_IN_PLACE, &growth, 1, MPI_INT64_T, MPI_MAX, comm_);
    piece_bytes_ = requested_piece_bytes(options_) * growth;
    agree_on("set up the exchange", [&] { set_up(config, fields); });
    // Every rank is set up, so every peer answers; a disagreement fails every rank before the
    // first exchange, each side of it naming the messages.
    agree_on("agree with its peers on the messages", [&] {
      const RankMessages& configured = config.rank_messages.at(static_cast<std::size_t>(rank_));
      const detail::MessageNames config_names(configured, config.geometry.has_value());
      detail::check_peers_agree(comm_, configured, config_names, options_.timeout, peer_cuts(),
                                piece_transfer_);
    });
    // Collective over the node: every rank reaches it, since set-up and handshake agreed.
    agree_on("set up the node transport", [&] {
      node_ = std::make_unique<detail::NodeTransport>(comm_, messages_, resources_->layouts,
                                                      resources_->plan.fields,
                                                      node_transport_options(options_),
                                                      resources_->control, *names_);
      node_->throw_if_unusable();
      resources_->attach_node_transport(*node_);
    });
    agree_on("start its kernels", [&] { start_strategy(); });
    if (options_.progress == Progress::thread) {
      // mpiexec binds a rank to one core by default: the progress thread then shares it with
      // the caller, and neither may spin while the other has work.
      shares_core_ = detail::cores_of_this_thread() == 1;
      progress_thread_ = std::thread([this] { run_progress_thread(); });
    }
  }

  ~Impl() { tear_down(); }

  // start() and start(fields): the exchange begins now.
  void start(const kernels::FieldSet* fields) {
    check_usable("start()");
    throw_if_aborted_idle();
    if (running()) {
      throw ExchangeError(ErrorKind::usage, prefix() + "start() while the exchange is still in progress");
    }
    const std::uint32_t slot = field_slot("start(fields)", fields);
    const std::uint64_t next = epoch() + 1;
    guarded([&] { resources_->select_fields(slot); });
    host_started_.store(next, std::memory_order_relaxed);
    publish(next);
    // The pack work starts now; with a progress thread, as soon as it sees the exchange.
    if (!progress_thread_.joinable()) guarded([&] { begin(next); });
  }

  // start(stream) and start(stream, fields): the caller's stream starts the exchange.
  void start(notify::WorkStream stream, const kernels::FieldSet* fields) {
    check_usable("start(stream)");
    check_stream_form("start(stream)", stream);
    throw_if_aborted_idle();
    if (waited_ != epoch()) {
      throw ExchangeError(ErrorKind::usage, prefix() + "start(stream) before wait(stream) or finish() of exchange " +
                          std::to_string(epoch()));
    }
    const std::uint32_t slot = field_slot("start(stream, fields)", fields);
    const std::uint64_t next = epoch() + 1;
    guarded([&] {
      if (slot != resources_->selected_slot()) {
        notify::enqueue_store(options_.backend, stream, resources_->field_slot_word(), slot);
        resources_->fields_selected_on_stream(slot);
      }
      // Without MPI sends no CPU step gates the start: the stream also stores the relay in
      // device memory, so the blocks start without waiting for pack block 0 to poll the host
      // flag over PCIe (docs/design.md, "Stream-ordered exchanges").
      if (resources_->plan.send_buffer_free.count == 0) {
        notify::enqueue_store(options_.backend, stream, resources_->plan.pack_start_relay.word(0),
                              next);
        if (resources_->plan.pieces.start_relay != nullptr) {
          notify::enqueue_store(options_.backend, stream, resources_->plan.pieces.start_relay, next);
        }
      }
      notify::enqueue_store(options_.backend, stream, resources_->plan.pack_start.word(0), next);
    });
    publish(next);
  }

  void wait(notify::WorkStream stream) {
    check_usable("wait(stream)");
    check_stream_form("wait(stream)", stream);
    throw_if_aborted_idle();
    const std::uint64_t last = epoch();
    // A rank without messages has nothing to wait for (and no block would count).
    if (last > waited_ && !(messages_.sends.empty() && messages_.recvs.empty())) {
      guarded([&] {
        // The kernels release the wait when they end; the host queue's own deadline comes later.
        notify::enqueue_wait(options_.backend, stream, resources_->plan.exchange_done, last,
                             2 * options_.timeout + std::chrono::seconds(1),
                             "exchange_done (rank " + std::to_string(rank_) + ", exchange " +
                                 std::to_string(last) + ")");
      });
    }
    waited_ = last;
  }

  bool progress() {
    check_usable("progress()");
    if (progress_thread_.joinable()) {
      throw_if_aborted_idle();
      return !running();
    }
    bool done = false;
    guarded([&] { done = advance(); });
    return done;
  }

  void finish() {
    await(epoch());
    waited_ = epoch();
  }

  // Returns once `exchange` is complete; a failure before then comes out of progress(). (A
  // failure of a later exchange is left to the next call.)
  void await(std::uint64_t exchange) {
    if (progress_thread_.joinable() && shares_core_) sleep_until_completed(exchange);
    // Many ranks may share few cores.
    while (completed() < exchange && !progress()) std::this_thread::yield();
  }

  // May be called from any thread: only the abort flag (which every wait reads) and the reason
  // are touched; the Exchange's own thread throws at its next call.
  void abort(std::string reason) {
    {
      const std::lock_guard<std::mutex> lock(abort_mutex_);
      if (abort_reason_.empty()) abort_reason_ = reason.empty() ? "no reason given" : reason;
    }
    abort_requested_.store(true, std::memory_order_release);
    resources_->control.raise_abort();
  }

  std::uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
  // The last exchange the CPU side completed.
  std::uint64_t completed() const { return completed_.load(std::memory_order_acquire); }
  // A handle waited for `exchange`: a later start(stream) may follow it.
  void mark_waited(std::uint64_t exchange) { waited_ = std::max(waited_, exchange); }
  int rank() const { return rank_; }
  const RankMessages& messages() const { return messages_; }
  std::string launch_description() const {
    return strategy_->launch_description() +
           (shares_core_ ? "; the progress thread shares the caller's one core" : "");
  }
  const ExchangeOptions& options() const { return options_; }
  std::int64_t mpi_piece_bytes() const { return pieced_.any_cut() ? piece_bytes_ : 0; }
  kernels::DevicePlan device_plan() const {
    // The handle drops the field bank: the caller's kernel picks its fields through it
    // (with_fields).
    return kernels::detail::make_device_plan(resources_->plan);
  }
  const std::vector<PeerTransport>& peer_transports() const { return peers_; }

  const ExchangeTimeline& last_timeline() const {
    if (!options_.trace) {
      throw ExchangeError(ErrorKind::usage, prefix() + "last_timeline() needs ExchangeOptions::trace");
    }
    return timeline_->last();
  }

 private:
  bool running() const {
    return completed_.load(std::memory_order_acquire) != epoch_.load(std::memory_order_acquire);
  }

  // Makes exchange `next` the last started one and wakes the progress thread.
  void publish(std::uint64_t next) {
    {
      const std::lock_guard<std::mutex> lock(progress_mutex_);
      epoch_.store(next, std::memory_order_release);
    }
    progress_wakeup_.notify_one();
  }

  std::uint32_t field_slot(const char* call, const kernels::FieldSet* fields) {
    if (fields == nullptr) return 0;
    if (options_.strategy == Strategy::embedded) {
      throw ExchangeError(ErrorKind::usage, prefix() + call +
                          ": with Strategy::embedded the caller's kernel picks its fields "
                          "(DevicePlan::with_fields)");
    }
    try {
      return resources_->field_slot_of(
          detail::checked_field_set(*fields, resources_->layouts, field_extent_, call));
    } catch (const ConfigError& error) {
      throw ExchangeError(ErrorKind::usage, prefix() + error.what());
    }
  }

  void check_stream_form(const char* call, notify::WorkStream stream) {
    if (options_.strategy != Strategy::resident) {
      throw ExchangeError(ErrorKind::usage, prefix() + call +
                          " needs Strategy::resident, whose kernels stay on the GPU and wait "
                          "for the stream's store; " + std::string(to_string(options_.strategy)) +
                          " starts its work from the host");
    }
    try {
      notify::check_stream(options_.backend, stream);
    } catch (const std::exception& error) {
      throw ExchangeError(ErrorKind::usage, prefix() + call + ": " + error.what());
    }
  }

  // One step of the CPU side: begins the next started exchange when none is in progress and
  // advances the one in progress. True once every started exchange is complete.
  bool advance() {
    throw_if_abort_requested();
    if (cpu_epoch_ == 0) {
      const std::uint64_t next = completed_.load(std::memory_order_relaxed) + 1;
      if (next > epoch()) return true;
      begin(next);
    }
    if (!step()) return false;
    resources_->send_buffer_free.signal(0, cpu_epoch_);
    const void* stamps = resources_->device_times.host();
    timeline_->end(static_cast<const std::uint64_t*>(stamps), clock_offset_);
    completed_.store(cpu_epoch_, std::memory_order_release);
    cpu_epoch_ = 0;
    return !running();
  }

  void begin(std::uint64_t next) {
    cpu_epoch_ = next;
    started_ = Clock::now();
    timeline_->begin(next);
    const bool by_host = host_started_.load(std::memory_order_relaxed) == next;
    strategy_->start(next, by_host ? detail::PackStart::by_strategy : detail::PackStart::by_stream);
    timeline_->started();
  }

  // Advances the exchange in progress; true once it is complete.
  bool step() {
    if (strategy_->progress()) return true;
    // An abort during progress() also ends device waits: name its reason, not their failure.
    throw_if_abort_requested();
    if (auto failure = resources_->control.failure(notify::Side::device)) {
      // An abort() that came after the check above may be what ended the device's wait
      // (abort() sets its reason before it raises the flag the device reads): name it.
      throw_if_abort_requested();
      // A device wait that was aborted is the abort's (reported above); else its deadline.
      throw ExchangeError(failure->outcome == notify::WaitOutcome::timed_out ? ErrorKind::timeout
                                                                              : ErrorKind::usage,
                          describe_device_failure(*failure) + pending());
    }
    const auto waited = Clock::now() - started_;
    if (waited > options_.timeout) {
      throw ExchangeError(ErrorKind::timeout, "timed out after " +
                          std::to_string(std::chrono::duration<double>(waited).count()) +
                          " s; still pending:" + pending());
    }
    return false;
  }

  // With the progress thread on the caller's one core, the caller sleeps while it waits, so
  // that the thread, which does the exchange's work, has the core.
  void sleep_until_completed(std::uint64_t exchange) {
    const auto done = [&] {
      return completed() >= exchange || failed_.load() ||
             abort_requested_.load(std::memory_order_acquire);
    };
    std::unique_lock<std::mutex> lock(completion_mutex_);
    while (!done()) completion_wakeup_.wait_for(lock, kCallerSleepSlice, done);
  }

  // The progress thread completed an exchange or failed: a sleeping caller looks again.
  void wake_caller() {
    if (!shares_core_) return;
    { const std::lock_guard<std::mutex> lock(completion_mutex_); }
    completion_wakeup_.notify_all();
  }

  // Progress::thread: the CPU side of every started exchange, until the Exchange ends or fails.
  void run_progress_thread() {
    auto last_work = Clock::now();
    while (!stop_progress_.load(std::memory_order_acquire) && !failed_.load()) {
      if (running()) {
        const std::uint64_t completed_before = completed();
        try {
          guarded([&] { (void)advance(); });
        } catch (const std::exception&) {  // kept in thread_error_ by guarded()
        }
        if (completed() != completed_before || failed_.load()) wake_caller();
        last_work = Clock::now();
        std::this_thread::yield();
        continue;
      }
      // On the caller's one core it sleeps at once: the caller needs the core to start more.
      if (!shares_core_ && Clock::now() - last_work < kProgressSpin) {
        std::this_thread::yield();
        continue;
      }
      std::unique_lock<std::mutex> lock(progress_mutex_);
      progress_wakeup_.wait(lock, [&] {
        return stop_progress_.load(std::memory_order_acquire) || running();
      });
      last_work = Clock::now();
    }
  }

  void stop_progress_thread() noexcept {
    if (!progress_thread_.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(progress_mutex_);
      stop_progress_.store(true, std::memory_order_release);
    }
    progress_wakeup_.notify_one();
    progress_thread_.join();
  }

  // Runs `step` on every rank and agrees on the outcome: set-up succeeds everywhere or every
  // rank throws (a failing rank its own error, the others naming it), so no rank waits for a
  // peer that will never exchange. Every rank's error has the kind of the named rank's.
  template <class Step>
  void agree_on(const char* what, Step step) {
    std::string failure;
    ErrorKind kind = ErrorKind::other;
    try {
      step();
    } catch (const std::exception& error) {
      failure = error.what();
      kind = kind_of(error);
    }
    // (rank, kind) of the highest failed rank: MPI_MAXLOC on (rank, kind) pairs.
    struct RankKind {
      int rank;
      int kind;
    } mine{failure.empty() ? -1 : rank_, static_cast<int>(kind)}, failed{-1, 0};
    MPI_Allreduce(&mine, &failed, 1, MPI_2INT, MPI_MAXLOC, comm_);
    if (failed.rank >= 0) {
      tear_down();
      if (!failure.empty()) {
        throw ExchangeError(kind, "rank " + std::to_string(rank_) + ": " + failure);
      }
      throw ExchangeError(static_cast<ErrorKind>(failed.kind),
                          "rank " + std::to_string(rank_) + ": rank " +
                              std::to_string(failed.rank) + " failed to " + what +
                              " (its error names the cause)");
    }
  }

  void set_up(const ExchangeConfig& config, const kernels::FieldSet& fields) {
    check_strategy(options_);
    check_thread_level(options_);
    int size = 0;
    MPI_Comm_size(comm_, &size);
    if (config.ranks != size) {
      throw ConfigError("the config is for " + std::to_string(config.ranks) +
                        " ranks, the communicator has " + std::to_string(size));
    }
    const RankMessages& configured = config.rank_messages.at(static_cast<std::size_t>(rank_));
    const std::int64_t piece_bytes = config.data ? piece_bytes_ : 0;
    if (piece_bytes > 0) piece_transfer_ = resolve_piece_transfer(options_.advanced.piece_transfer);
    // Long or short by the config's messages: a piece is short, packed and unpacked by a block
    // of its own as soon as it can be.
    options_.advanced.long_message_bytes = long_message_bytes(configured);
    mpi_peers_ = peers_over_mpi(configured, options_, node_ranks_.ranks);
    pieced_ = detail::cut_into_pieces(configured, config.data.value_or(MessageData{}), piece_bytes,
                                      mpi_peers_, size, tag_upper_bound(comm_));
    messages_ = pieced_.messages;
    names_.emplace(pieced_.messages, pieced_.sends, pieced_.recvs, config.geometry.has_value());
    timeline_.emplace(messages_, options_.trace);
    // Device stamps are put on the host's time line; the offset is measured once.
    if (options_.trace && options_.backend != notify::Backend::host) {
      clock_offset_ = notify::measure_device_clock_offset(options_.backend);
    }
    // The layouts of what moves: the pieces where messages were cut.
    ExchangeConfig moved = config;
    moved.rank_messages[static_cast<std::size_t>(rank_)] = messages_;
    MessageLayouts layouts = make_message_layouts(moved, rank_);
    // NCCL moves one span per peer: the peer's messages lie together (peer_spans.hpp).
    if (all_over_nccl(options_)) peer_spans_ = detail::arrange_by_peer(messages_, layouts);
    field_extent_ = configured.field_extent.value_or(Index3{0, 0, 0});
    const kernels::FieldSet checked =
        detail::checked_field_set(fields, layouts, field_extent_, "rank " + std::to_string(rank_));
    resources_ = std::make_unique<detail::ExchangeResources>(std::move(layouts), checked, options_);
  }

  // Once the plan is complete (node routes included): the kernel runner copies it, and resident
  // kernels start here.
  void start_strategy() {
    runner_ = kernels::make_kernel_runner(options_.backend, resources_->plan,
                                          options_.advanced.launch, node_->gpu_sharers());
    peers_ = node_->peers();
    describe_mpi_pieces();
    if (all_over_nccl(options_)) {
      add_nccl_transport();
    } else {
      add_device_route_transports();
    }
    const detail::StrategyContext context{*resources_, *runner_, *timeline_, transports_, *names_};
    if (all_over_nccl(options_)) {
      strategy_ = detail::make_nccl_strategy(context);
    } else if (uses_flags(options_.strategy)) {
      strategy_ = detail::make_notify_strategy(options_.strategy, context);
    } else {
      strategy_ = detail::make_bulk_strategy(options_.strategy, context);
    }
  }

  // Every peer over NCCL: one transport for all of them, and every peer described so.
  void add_nccl_transport() {
    peers_.clear();
    for (const int peer : detail::peers_of(peer_spans_)) {
      peers_.push_back({peer, Transport::nccl, "NCCL"});
    }
    transports_.push_back(detail::make_nccl_transport(comm_, peer_spans_, options_.timeout,
                                                      *resources_,
                                                      runner_->gpu_stream(kernels::Lane::pack)));
  }

  // The transports with device routes, each where it carries a message: node, then mpi.
  void add_device_route_transports() {
    if (node_->any()) {
      transports_.push_back(std::make_unique<detail::NodeHostTransport>(
          *node_, *resources_, *timeline_, *names_, messages_.sends.size(),
          messages_.recvs.size()));
    }
    std::vector<bool> node_sends(messages_.sends.size());
    std::vector<bool> node_recvs(messages_.recvs.size());
    bool over_mpi = false;
    for (std::size_t m = 0; m < node_sends.size(); ++m) {
      node_sends[m] = node_->node_send(m);
      over_mpi = over_mpi || !node_sends[m];
    }
    for (std::size_t r = 0; r < node_recvs.size(); ++r) {
      node_recvs[r] = node_->node_recv(r);
      over_mpi = over_mpi || !node_recvs[r];
    }
    if (!over_mpi) return;
    auto requests = std::make_unique<detail::MessageRequests>(
        comm_, pieced_.wire, resources_->layouts, resources_->send_buffer_host(),
        resources_->recv_buffer_host(), *names_, std::move(node_sends), std::move(node_recvs),
        options_.advanced.persistent_requests, &pieced_,
        piece_transfer_ == PieceTransfer::partitioned);
    detail::MpiWorkOrder order;
    if (uses_flags(options_.strategy)) {
      order.on_arrival_from_bytes = options_.advanced.long_receives_on_arrival
                                        ? resources_->plan.long_message_bytes
                                        : 0;
      order.receives_between_sends =
          resources_->plan.long_sends_in_turn && options_.strategy != Strategy::embedded;
    }
    transports_.push_back(std::make_unique<detail::MpiHostTransport>(
        std::move(requests), *resources_, *timeline_, order));
  }

  // AdvancedOptions::long_message_bytes, or half the largest of `messages`.
  std::int64_t long_message_bytes(const RankMessages& messages) const {
    if (options_.advanced.long_message_bytes > 0) return options_.advanced.long_message_bytes;
    std::int64_t largest = 0;
    for (const auto* list : {&messages.sends, &messages.recvs}) {
      for (const Message& m : *list) largest = std::max(largest, m.bytes);
    }
    return std::max<std::int64_t>(largest / 2, 1);
  }

  // The stream kernels give every message a pack or unpack block of its own, and all of them
  // must be resident at once: on a GPU, by how much the piece size asked for must grow (1, 2,
  // 4, ...) for the blocks of what moves to fit this rank's share of it (past the largest
  // message: whole).
  std::int64_t piece_growth_to_fit(const ExchangeConfig& config) const {
    const std::int64_t asked = requested_piece_bytes(options_);
    const bool stream_kernels =
        options_.strategy == Strategy::stream_notify || options_.strategy == Strategy::resident;
    if (!stream_kernels || options_.backend == notify::Backend::host || !config.data ||
        asked == 0) {
      return 1;
    }
    const RankMessages& configured = config.rank_messages.at(static_cast<std::size_t>(rank_));
    const kernels::LaunchSettings& launch = options_.advanced.launch;
    const std::int64_t capacity =
        kernels::message_block_capacity(options_.backend, options_.strategy == Strategy::resident,
                                        launch, node_ranks_.gpu_sharers);
    const std::int64_t long_bytes = long_message_bytes(configured);
    const int send_team = runs_helper_blocks(options_) ? launch.long_send_blocks : 1;
    const int recv_team = effective_long_receive_blocks(options_);
    const std::set<int> peers = peers_over_mpi(configured, options_, node_ranks_.ranks);
    std::int64_t growth = 1;
    for (; asked * growth < 2 * long_bytes; growth *= 2) {
      const detail::PiecedMessages cut =
          detail::cut_into_pieces(configured, *config.data, asked * growth, peers, config.ranks,
                                  std::numeric_limits<int>::max());
      if (detail::stream_kernel_blocks(cut.messages, long_bytes, send_team, recv_team) <=
          capacity) {
        break;
      }
    }
    return growth;
  }

  // For the handshake: how this rank moves its messages with each rank of comm_.
  std::vector<detail::PeerCut> peer_cuts() const {
    std::vector<detail::PeerCut> cuts(pieced_.piece_bytes_by_peer.size());
    for (const int peer : mpi_peers_) {
      if (peer < 0 || static_cast<std::size_t>(peer) >= cuts.size()) continue;
      cuts[static_cast<std::size_t>(peer)].over_mpi = true;
      cuts[static_cast<std::size_t>(peer)].piece_bytes =
          pieced_.piece_bytes_by_peer[static_cast<std::size_t>(peer)];
    }
    const auto count = [&](const std::vector<Message>& moved,
                           const std::vector<detail::WireOrigin>& origins) {
      for (std::size_t m = 0; m < moved.size(); ++m) {
        const auto peer = static_cast<std::size_t>(moved[m].peer);
        if (origins[m].pieces > 1 && peer < cuts.size()) ++cuts[peer].cut;
      }
    };
    count(pieced_.messages.sends, pieced_.sends);
    count(pieced_.messages.recvs, pieced_.recvs);
    return cuts;
  }

  // What the peers' paths say: for an MPI peer with cut messages, the pieces and how they travel
  // ("mpi, pieces of <= 16384 B (partitioned)").
  void describe_mpi_pieces() {
    for (PeerTransport& peer : peers_) {
      if (peer.transport != Transport::mpi) continue;
      bool cut = false;
      for (std::size_t m = 0; m < messages_.sends.size(); ++m) {
        cut = cut || (messages_.sends[m].peer == peer.peer && pieced_.sends[m].pieces > 1);
      }
      for (std::size_t r = 0; r < messages_.recvs.size(); ++r) {
        cut = cut || (messages_.recvs[r].peer == peer.peer && pieced_.recvs[r].pieces > 1);
      }
      if (!cut) continue;
      peer.path += ", pieces of <= " + std::to_string(piece_bytes_) + " B";
      if (piece_bytes_ != options_.advanced.mpi_piece_bytes) {
        peer.path += " (" + std::to_string(options_.advanced.mpi_piece_bytes) +
                     " asked: smaller ones take more GPU blocks than can be resident)";
      }
      peer.path += piece_transfer_ == PieceTransfer::partitioned ? ", partitioned"
                                                                 : ", point to point";
    }
  }

  // Stops kernels (abort first if an exchange is unfinished), drops MPI requests, frees memory
  // in the order that keeps the kernels' memory alive until they are gone.
  void tear_down() noexcept {
    // The progress thread first: it uses everything below.
    if (resources_ && running()) resources_->control.raise_abort();
    stop_progress_thread();
    const bool unfinished = running() || failed_.load();
    if (resources_ && unfinished) resources_->control.raise_abort();
    if (strategy_) strategy_->shut_down();
    // The transports go before the kernel runner and the memory: MPI's requests are cancelled
    // and freed, NCCL's communicator is flushed or aborted.
    strategy_.reset();
    transports_.clear();
    runner_.reset();
    // Every kernel of this rank has stopped: its mappings of the peers' memory can close, and
    // this rank's memory is freed once the node's other ranks have closed theirs.
    node_.reset();
    resources_.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    // An exchange that did not finish may have left sends that nobody received. Its
    // communicator is kept, so that MPI never gives its context to a later communicator whose
    // receives would match those leftovers: MPICH reuses a freed context for the next
    // MPI_Comm_dup, and a later Exchange would then take an old exchange's data for its own.
    const bool leftovers_possible = unfinished;
    if (!finalized && comm_ != MPI_COMM_NULL && !leftovers_possible) MPI_Comm_free(&comm_);
  }

  void check_usable(const char* call) {
    if (failed_.load()) {
      {
        // The progress thread's error is reported once, by the caller's next call.
        const std::lock_guard<std::mutex> lock(abort_mutex_);
        if (!thread_error_.empty()) {
          throw ExchangeError(thread_error_kind_, std::exchange(thread_error_, {}));
        }
      }
      const std::string reason = abort_reason();
      throw ExchangeError(ErrorKind::usage, prefix() + call + " after a failed exchange" +
                          (reason.empty() ? std::string() : " (aborted: " + reason + ")") +
                          ": this Exchange is unusable");
    }
  }

  std::string abort_reason() const {
    const std::lock_guard<std::mutex> lock(abort_mutex_);
    return abort_reason_;
  }

  // After abort(): the error of the exchange in progress (naming what it still waited for) or
  // of the next call, with the reason.
  void throw_if_abort_requested() const {
    if (!abort_requested_.load(std::memory_order_acquire)) return;
    throw ExchangeError(ErrorKind::usage, "aborted: " + abort_reason() +
                        (running() ? "; still pending:" + pending() : std::string()));
  }

  // The caller's check before a call that starts or reports: with no exchange in progress the
  // abort is reported here; one in progress is the progress thread's to report (with what it
  // still waited for), or advance()'s.
  void throw_if_aborted_idle() {
    if (!abort_requested_.load(std::memory_order_acquire)) return;
    if (progress_thread_.joinable() && running()) return;
    guarded([&] { throw_if_abort_requested(); });
  }

  // Runs `step`; any error marks the exchange failed, raises the abort flag so the kernels
  // stop waiting, and comes out as an ExchangeError naming rank, epoch and strategy.
  template <class Step>
  void guarded(Step step) {
    try {
      step();
    } catch (const std::exception& error) {
      std::string text = prefix(exchange_in_hand()) + error.what();
      const ErrorKind kind = kind_of(error);
      if (std::this_thread::get_id() == progress_thread_.get_id()) {
        // Kept before the Exchange is marked failed, so the caller's next call reports it.
        const std::lock_guard<std::mutex> lock(abort_mutex_);
        thread_error_ = text;
        thread_error_kind_ = kind;
      }
      failed_.store(true);
      resources_->control.raise_abort();
      for (auto& transport : transports_) transport->abandon();
      throw ExchangeError(kind, text);
    }
  }

  // The exchange the calling thread works on: the CPU side's own while it has one (several may
  // have been started on a stream), else the last started.
  std::uint64_t exchange_in_hand() const {
    const bool cpu_side = progress_thread_.joinable()
                              ? std::this_thread::get_id() == progress_thread_.get_id()
                              : true;
    return cpu_side && cpu_epoch_ != 0 ? cpu_epoch_ : epoch();
  }

  std::string prefix() const { return prefix(epoch()); }

  std::string prefix(std::uint64_t exchange) const {
    return "rank " + std::to_string(rank_) + ", exchange " + std::to_string(exchange) + " (" +
           std::string(to_string(options_.strategy)) + " on " +
           std::string(notify::to_string(options_.backend)) + "): ";
  }

  std::string pending() const {
    std::string text = strategy_->pending();
    for (const auto& transport : transports_) text += transport->pending(exchange_in_hand());
    return text;
  }

  std::string describe_device_failure(const notify::WaitFailure& failure) const {
    std::string text = failure.describe();
    if (failure.outcome == notify::WaitOutcome::out_of_order) {
      return text + " (the epoch passed to embedded_pack/embedded_unpack; docs/embedding.md)" +
             "; still pending:";
    }
    if (failure.array_name == "unpack_ready" && failure.index < messages_.recvs.size()) {
      text += ", waiting for the " + names_->recv(failure.index);
    } else if (failure.array_name == "node_arrival") {
      text += ", waiting for every piece of node peer " + std::to_string(node_->peer_rank(failure.index)) +
              " (its GPU stores the word once they have all landed)";
    } else if (failure.array_name == "node_ghosts_free") {
      text += ", waiting before sending to node peer " + std::to_string(node_->peer_rank(failure.index)) +
              " for it to start the exchange (node transport flow control)";
    } else if (failure.array_name == "send_buffer_free") {
      text += ", waiting for this rank's CPU to complete the previous exchange's MPI sends (a "
              "start(stream) with MPI peers needs progress = thread or progress() calls)";
    } else if (failure.array_name == "pack_start") {
      text += options_.strategy == Strategy::embedded
                  ? ", waiting for this rank's start() of that exchange (the caller's kernel "
                    "waits for it at most the timeout)"
                  : ", waiting for the next exchange to start (resident kernels wait at most "
                    "the timeout between exchanges)";
    }
    return text + "; still pending:";
  }

  ExchangeOptions options_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  Index3 field_extent_{0, 0, 0};  // the config's, for FieldSets given to start(fields)
  detail::NodeRanks node_ranks_;  // the ranks of comm_ on this rank's node, its GPU's sharers
  // The MPI piece size every rank cuts with (0: whole): the one asked for, or larger where a
  // rank's GPU cannot keep the blocks of smaller pieces resident.
  std::int64_t piece_bytes_ = 0;
  std::set<int> mpi_peers_;        // the peers MPI carries
  detail::PiecedMessages pieced_;  // what moves: messages whole, or cut into pieces for MPI
  PieceTransfer piece_transfer_ = PieceTransfer::point_to_point;  // resolved
  RankMessages messages_;          // pieced_.messages
  std::vector<PeerTransport> peers_;  // every peer's transport, with the MPI pieces described
  std::optional<detail::MessageNames> names_;
  std::optional<detail::TimelineRecorder> timeline_;
  notify::DeviceClockOffset clock_offset_;
  std::unique_ptr<detail::ExchangeResources> resources_;
  std::unique_ptr<detail::NodeTransport> node_;
  std::unique_ptr<kernels::KernelRunner> runner_;
  detail::HostTransports transports_;  // the host halves, each carrying some of the messages
  std::unique_ptr<detail::ExchangeStrategy> strategy_;
  detail::PeerSpans peer_spans_;  // nccl: each peer's span of the buffers
  std::atomic<std::uint64_t> epoch_{0};      // the last exchange started
  std::atomic<std::uint64_t> completed_{0};  // the last exchange the CPU side completed
  std::atomic<std::uint64_t> host_started_{0};  // the last exchange started by start()
  std::uint64_t cpu_epoch_ = 0;  // the exchange the CPU side works on; 0: none
  std::uint64_t waited_ = 0;     // the last exchange awaited by wait(stream) or finish()
  std::atomic<bool> failed_{false};
  Clock::time_point started_{};  // when the CPU side began cpu_epoch_
  std::thread progress_thread_;
  std::atomic<bool> stop_progress_{false};
  std::mutex progress_mutex_;
  std::condition_variable progress_wakeup_;
  bool shares_core_ = false;  // the progress thread runs on the caller's one core
  std::mutex completion_mutex_;
  std::condition_variable completion_wakeup_;  // a caller sleeping in await()
  std::string thread_error_;  // the progress thread's failure, not reported yet
  ErrorKind thread_error_kind_ = ErrorKind::other;
  std::atomic<bool> abort_requested_{false};
  mutable std::mutex abort_mutex_;
  std::string abort_reason_;
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
void Exchange::run() {
  impl().start(nullptr);
  impl().finish();
}
void Exchange::abort(std::string reason) { impl().abort(std::move(reason)); }
std::uint64_t Exchange::epoch() const { return impl().epoch(); }
Strategy Exchange::strategy() const { return impl().options().strategy; }
notify::Backend Exchange::backend() const { return impl().options().backend; }
int Exchange::rank() const { return impl().rank(); }
const RankMessages& Exchange::messages() const { return impl().messages(); }
std::string Exchange::launch_description() const { return impl().launch_description(); }
const ExchangeTimeline& Exchange::last_timeline() const { return impl().last_timeline(); }
kernels::DevicePlan Exchange::device_plan() const { return impl().device_plan(); }
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
