// The Exchange's collective set-up (exchange_setup.hpp): every step runs on every rank and every
// rank agrees on its outcome before the next, so that no rank waits for a peer that will never
// exchange. The set-up names no transport: it runs every transport's steps
// (exchange_transport.hpp) in the registry's order, and what only the set-up needs lives in its
// TransportSetUp and goes when the set-up ends.
#include "exchange/exchange_setup.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "field_set_check.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/strategy.hpp"
#include "options/transport_rules.hpp"
#include "peer_handshake.hpp"
#include "transports/transport_registry.hpp"

namespace haloflag::halo::detail {

namespace {

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

// The window after which resident kernels leave the GPU idle: at least a microsecond (a shorter
// one would have them leave between back-to-back exchanges), or never.
void check_idle_exit(const ExchangeOptions& options) {
  if (options.idle_exit >= std::chrono::microseconds(1)) return;
  throw ConfigError("ExchangeOptions::idle_exit must be at least 1 microsecond, or kIdleExitNever "
                    "to keep resident kernels on the GPU (got " +
                    std::to_string(options.idle_exit.count()) + " ns)");
}

// AdvancedOptions::long_message_bytes, or half the largest of `messages`.
std::int64_t long_message_bytes(const ExchangeOptions& options, const RankMessages& messages) {
  const std::int64_t asked = options.advanced.long_message_bytes;
  if (asked > 0) return asked;
  std::int64_t largest = 0;
  for (const auto* list : {&messages.sends, &messages.recvs}) {
    for (const Message& m : *list) largest = std::max(largest, m.bytes);
  }
  return std::max<std::int64_t>(largest / 2, 1);
}

// Each message travels whole unless a transport cuts it.
void move_whole(const RankMessages& messages, TransportSetUp& s) {
  s.moved = messages;
  const auto origins = [](const std::vector<Message>& list) {
    std::vector<WireOrigin> whole;
    for (std::size_t i = 0; i < list.size(); ++i) whole.push_back({i, list[i].tag, 0, 1, 0, 0});
    return whole;
  };
  s.send_origins = origins(messages.sends);
  s.recv_origins = origins(messages.recvs);
}

// The set-up's steps, run in order by run(); each fills some of `parts`.
class ExchangeSetUp {
 public:
  ExchangeSetUp(ExchangeParts& parts, const ExchangeConfig& config)
      : parts_(parts),
        config_(config),
        set_up_{parts.comm, parts.rank, config, parts.options, configured_messages()} {
    set_up_.agree = [this](const char* what, const std::function<void()>& step) {
      agree_on(what, step);
    };
  }

  void run(const kernels::FieldSet& fields) {
    // Long or short by the config's messages: a piece is short, packed and unpacked by a block
    // of its own as soon as it can be.
    parts_.options.advanced.long_message_bytes =
        long_message_bytes(parts_.options, configured_messages());
    move_whole(configured_messages(), set_up_);
    // Every rank runs every entry's steps, also where its transport takes no part here (a peer
    // may have chosen differently), so that the agreed steps match.
    for (const TransportEntry& entry : transport_registry()) {
      auto transport = entry.make(set_up_);
      by_entry_.push_back(transport.get());
      if (transport) parts_.transports.push_back(std::move(transport));
    }
    // Which peers each transport carries, and how MPI cuts its messages, before anything is sized.
    for (auto& transport : parts_.transports) transport->prepare(set_up_);
    agree_on("set up the exchange", [&] { set_up(fields); });
    // Every rank is set up, so every peer answers; a disagreement fails every rank before the
    // first exchange, each side of it naming the messages.
    agree_on("agree with its peers on the messages", [&] {
      const RankMessages& configured = configured_messages();
      const MessageNames config_names(configured, config_.geometry.has_value());
      HandshakeTerms terms;
      for (const auto& transport : parts_.transports) transport->add_terms(terms);
      check_peers_agree(parts_.comm, configured, config_names, parts_.options.timeout,
                        terms.cuts, terms.transfer);
    });
    const auto entries = transport_registry();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      agree_on("set up the " + std::string(entries[i].name) + " transport", [&] {
        if (by_entry_[i] != nullptr) by_entry_[i]->connect(set_up_);
      });
    }
    agree_on("start its kernels", [&] { start_strategy(); });
  }

 private:
  // This rank's messages as the config gives them, whole.
  const RankMessages& configured_messages() const {
    return config_.rank_messages.at(static_cast<std::size_t>(parts_.rank));
  }
  // Runs `step` on every rank and agrees on the outcome: set-up succeeds everywhere or every
  // rank throws (a failing rank its own error, the others naming it), so no rank waits for a
  // peer that will never exchange. Every rank's error has the kind of the named rank's.
  template <class Step>
  void agree_on(const std::string& what, Step step) {
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
    } mine{failure.empty() ? -1 : parts_.rank, static_cast<int>(kind)}, failed{-1, 0};
    MPI_Allreduce(&mine, &failed, 1, MPI_2INT, MPI_MAXLOC, parts_.comm);
    if (failed.rank >= 0) {
      // No exchange has started: nothing is unfinished.
      parts_.release(false);
      if (!failure.empty()) {
        throw ExchangeError(kind, "rank " + std::to_string(parts_.rank) + ": " + failure);
      }
      throw ExchangeError(static_cast<ErrorKind>(failed.kind),
                          "rank " + std::to_string(parts_.rank) + ": rank " +
                              std::to_string(failed.rank) + " failed to " + what +
                              " (its error names the cause)");
    }
  }

  void set_up(const kernels::FieldSet& fields) {
    ExchangeOptions& options = parts_.options;
    const int rank = parts_.rank;
    check_transport_choice(options);
    check_thread_level(options);
    check_idle_exit(options);
    int size = 0;
    MPI_Comm_size(parts_.comm, &size);
    if (config_.ranks != size) {
      throw ConfigError("the config is for " + std::to_string(config_.ranks) +
                        " ranks, the communicator has " + std::to_string(size));
    }
    for (auto& transport : parts_.transports) transport->cut(set_up_);
    parts_.messages = set_up_.moved;
    parts_.send_origins = set_up_.send_origins;
    parts_.recv_origins = set_up_.recv_origins;
    parts_.names.emplace(parts_.messages, parts_.send_origins, parts_.recv_origins,
                         config_.geometry.has_value());
    set_up_.names = &*parts_.names;
    parts_.timeline.emplace(parts_.messages, options.trace);
    set_up_.timeline = &*parts_.timeline;
    // Device stamps are put on the host's time line; the offset is measured once.
    if (options.trace && options.backend != notify::Backend::host) {
      parts_.clock_offset = notify::measure_device_clock_offset(options.backend);
    }
    // The layouts of what moves: the pieces where messages were cut.
    ExchangeConfig moved = config_;
    moved.rank_messages[static_cast<std::size_t>(rank)] = parts_.messages;
    MessageLayouts layouts = make_message_layouts(moved, rank);
    for (auto& transport : parts_.transports) transport->arrange(set_up_, layouts);
    parts_.field_extent = configured_messages().field_extent.value_or(Index3{0, 0, 0});
    const kernels::FieldSet checked =
        checked_field_set(fields, layouts, parts_.field_extent, "rank " + std::to_string(rank));
    parts_.resources = std::make_unique<ExchangeResources>(std::move(layouts), checked, options);
    set_up_.resources = parts_.resources.get();
  }

  // Once every device route is in the plan: the per-message blocks take what the piece grid does
  // not, the kernel runner copies the plan (resident kernels start here), and the transports
  // describe their peers and hand the strategy their host halves.
  void start_strategy() {
    const ExchangeOptions& options = parts_.options;
    ExchangeResources& resources = *parts_.resources;
    set_up_.sends_in_pieces.assign(parts_.messages.sends.size(), false);
    set_up_.recvs_in_pieces.assign(parts_.messages.recvs.size(), false);
    for (const auto& transport : parts_.transports) {
      for (std::size_t m = 0; m < set_up_.sends_in_pieces.size(); ++m) {
        if (transport->carries_send(m)) set_up_.sends_in_pieces[m] = true;
      }
      for (std::size_t r = 0; r < set_up_.recvs_in_pieces.size(); ++r) {
        if (transport->carries_recv(r)) set_up_.recvs_in_pieces[r] = true;
      }
    }
    resources.count_message_blocks(set_up_.sends_in_pieces, set_up_.recvs_in_pieces);
    parts_.runner = kernels::make_kernel_runner(options.backend, resources.plan,
                                                options.advanced.launch, set_up_.gpu_sharers);
    set_up_.runner = parts_.runner.get();
    for (const auto& transport : parts_.transports) transport->describe_peers(parts_.peers);
    for (auto& transport : parts_.transports) {
      if (auto half = transport->host_half(set_up_)) parts_.host_halves.push_back(std::move(half));
    }
    const StrategyContext context{resources, *parts_.runner, *parts_.timeline,
                                  parts_.host_halves, *parts_.names};
    if (all_over_nccl(options)) {
      parts_.strategy = make_nccl_strategy(context);
    } else if (uses_flags(options.strategy)) {
      parts_.strategy = make_notify_strategy(options.strategy, context);
    } else {
      parts_.strategy = make_bulk_strategy(options.strategy, context);
    }
  }

  ExchangeParts& parts_;
  const ExchangeConfig& config_;
  TransportSetUp set_up_;
  std::vector<ExchangeTransport*> by_entry_;  // by registry entry; null where none was made
};

}  // namespace

ExchangeParts::ExchangeParts(const ExchangeConfig& config, const kernels::FieldSet& fields,
                             const ExchangeOptions& given)
    : options(given), comm(duplicate(given.comm)) {
  MPI_Comm_rank(comm, &rank);
  ExchangeSetUp(*this, config).run(fields);
}

void ExchangeParts::release(bool unfinished) noexcept {
  if (resources && unfinished) resources->control.raise_abort();
  if (strategy) strategy->shut_down();
  // The transports go before the kernel runner and the memory: MPI's requests are cancelled
  // and freed, NCCL's communicator is flushed or aborted.
  strategy.reset();
  host_halves.clear();
  runner.reset();
  // Every kernel of this rank has stopped: the transports' mappings of the peers' memory can
  // close, and this rank's memory is freed once the node's other ranks have closed theirs.
  transports.clear();
  resources.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  // An exchange that did not finish may have left sends that nobody received. Its
  // communicator is kept, so that MPI never gives its context to a later communicator whose
  // receives would match those leftovers: MPICH reuses a freed context for the next
  // MPI_Comm_dup, and a later Exchange would then take an old exchange's data for its own.
  const bool leftovers_possible = unfinished;
  if (!finalized && comm != MPI_COMM_NULL && !leftovers_possible) MPI_Comm_free(&comm);
}

}  // namespace haloflag::halo::detail
