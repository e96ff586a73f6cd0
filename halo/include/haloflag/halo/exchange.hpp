/// @file
/// One rank's halo exchange: a config (or geometry), the fields, a strategy and a backend, reused
/// for many exchanges.
///
///   halo::Exchange exchange(config, fields, options);   // collective over options.comm
///   for (...) {
///     exchange.start();                  // exchange number epoch() begins
///     while (!exchange.progress()) { /* the caller's own CPU work */ }
///     // or exchange.finish();           // blocks until done
///   }
///
/// Stream-ordered (Strategy::resident): the exchange is ordered on the caller's stream, with no
/// host synchronisation and no kernel launch per exchange (docs/embedding.md):
///
///   const notify::WorkStream on_stream(stream);   // a GPU stream converts only explicitly
///   update<<<..., stream>>>(...);
///   exchange.start(on_stream);   // the resident kernels pack once `update` has finished
///   exchange.wait(on_stream);    // work enqueued after this sees the ghost cells
///
/// With MPI peers, someone must run the CPU state machine meanwhile: a progress thread
/// (ExchangeOptions::progress = thread) or the caller's progress() calls. Peers of the node
/// transport need neither.
///
/// With Strategy::embedded the caller's own persistent kernel packs and unpacks (device_plan(),
/// haloflag/kernels/embedded_api.hpp) while the host runs the same start()/finish() loop.
///
/// `fields` are the rank's variables in the backend's device memory (host memory on the host
/// backend): each one's cell (0, 0, 0) of the config's field extent (ghosts included), its
/// strides and element size (haloflag/kernels/field_set.hpp: dense, padded or interleaved
/// arrays of any trivially copyable type of 1 to 16 bytes). Each variable's element size must be
/// the config's (MessageData::bytes_of, GeometrySpec::variable_bytes); a set-up error names the
/// variable that differs or whose strides let cells overlap. start()
/// may only be called when the fields are ready to be read (the caller's kernels that write them
/// have finished); start(stream) when they will be, once the stream's earlier work is done.
/// After finish(), a true progress() or the stream's wait(stream), the ghost cells hold the
/// neighbours' data and the exchange's kernels no longer touch the fields until the next start.
/// start(fields) and start(stream, fields) exchange another FieldSet of the same extent and
/// variables (double buffering); node-transport mappings are the Exchange's own buffers
/// and serve every FieldSet.
///
/// Errors: the constructor throws ExchangeError on every rank when one rank fails to set up (its
/// own error: bad config, a grid that cannot be resident, memory, an MPI thread level too low for
/// a progress thread) or when two peers disagree on the messages between them (checked by a
/// handshake at set-up; both sides name the messages). An exchange throws ExchangeError naming
/// the rank, epoch, strategy and every message still pending (peer, tag, bytes, direction when
/// known) on a missed deadline, a device-side wait failure, an MPI error, a size mismatch or
/// abort(); the Exchange is then unusable and its destructor stops its kernels. A stream that
/// waits in wait(stream) is released when the exchange fails, so it never waits forever; the
/// error comes from the next call on the Exchange.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/exchange_timeline.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/halo/tuning.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/work_stream.hpp"

namespace haloflag::halo {

class ExchangeHandle;

/// How many different FieldSets one Exchange serves (start(fields), map_fields()).
inline constexpr int kMaxFieldSets = kernels::kMaxFieldSets;

/// A halo exchange of one rank: set up once, then started and completed once per epoch.
class Exchange {
 public:
  /// This rank's messages are config.rank_messages[rank in options.comm]; the config must carry
  /// boxes and a data record. Collective over options.comm. Runs the options as given and never
  /// tunes: options.tuning = Tuning::automatic throws ConfigError, naming the rank, that says to
  /// call tune() (haloflag/halo/tune.hpp) or Exchange::tuned() instead.
  Exchange(const ExchangeConfig& config, const kernels::FieldSet& fields,
           const ExchangeOptions& options);
  /// This rank's messages are the geometry's for its rank in options.comm. Collective over options.comm.
  Exchange(const Geometry& geometry, const kernels::FieldSet& fields,
           const ExchangeOptions& options);
  /// Tunes the order of work first (tune(), haloflag/halo/tune.hpp) and returns an Exchange set
  /// up with the chosen one; its tuning() reports every candidate and the choice.
  /// options.tuning is not read. Collective over options.comm.
  static Exchange tuned(const ExchangeConfig& config, const kernels::FieldSet& fields,
                        const ExchangeOptions& options);
  /// The same on the messages of `geometry`. Collective over options.comm.
  static Exchange tuned(const Geometry& geometry, const kernels::FieldSet& fields,
                        const ExchangeOptions& options);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;
  /// Movable: an Exchange can live in a container or come out of a factory. Its kernels, threads
  /// and memory stay where they are; only the handle moves. Every call on a moved-from Exchange
  /// throws ExchangeError saying so; assigning another Exchange to it makes it usable again.
  /// Moving onto a live Exchange first tears that one down, as its destructor would.
  Exchange(Exchange&& other) noexcept;
  /// Move assignment: see the move constructor.
  Exchange& operator=(Exchange&& other) noexcept;

  /// Begins the next exchange (epoch() + 1) now, and returns its handle (wait(), test()). Throws
  /// if one is still in progress.
  ExchangeHandle start();
  /// The same on another FieldSet of the same shape (at most kMaxFieldSets different ones per
  /// Exchange; the first start on a new one copies its pointers to the device once). Not for
  /// Strategy::embedded, whose kernel picks its fields itself (DevicePlan::with_fields).
  ExchangeHandle start(const kernels::FieldSet& fields);
  /// Stream-ordered start (Strategy::resident): enqueues on `stream` the store of the next epoch
  /// into the flag the resident kernels wait on, so they pack once the work enqueued before it
  /// is done. Returns at once. The previous exchange's wait(stream) on the same stream (or
  /// finish()) must come first. `stream` is a cudaStream_t/hipStream_t on the GPU backends,
  /// wrapped explicitly as notify::WorkStream(stream), and a notify::HostQueue on the host backend.
  void start(notify::WorkStream stream);
  /// As start(stream), exchanging `fields` instead of the fields given at construction.
  void start(notify::WorkStream stream, const kernels::FieldSet& fields);
  /// Enqueues on `stream` a wait until the last started exchange is complete on the GPU: every
  /// message packed (the fields read) and unpacked (the ghost cells written). Returns at once.
  void wait(notify::WorkStream stream);
  /// Advances the exchanges started without blocking (with Progress::thread it only reports);
  /// true once every one is complete.
  bool progress();
  /// Blocks until every started exchange completes (calling progress).
  void finish();
  /// Strategy::embedded: the caller's kernel has started, or will start, exchanges up to `last`
  /// itself (haloflag/kernels/embedded_exchange.hpp), with no start() per exchange. epoch()
  /// becomes `last`; finish() then waits (each exchange at most the timeout) until the kernel's
  /// exchanges are done and throws ExchangeError naming any failure the kernel recorded. Peers
  /// over node and self need nothing more of the host. For peers over MPI the CPU state machine
  /// takes the exchanges in turn, beside the kernel: in the progress thread (Progress::thread),
  /// or in the caller's progress() and finish(), which must then be called while the kernel
  /// runs. Throws of kind usage for another strategy or `last` < epoch().
  void started_on_device(std::uint64_t last);
  /// Whether started_on_device() is accepted: Strategy::embedded (every transport: peers over
  /// MPI are driven beside the kernel).
  bool can_start_on_device() const;
  /// start() then finish().
  void run();
  /// Ends this rank's exchange: raises the abort flag that every wait reads (the kernels stop
  /// waiting and exit), and the exchange in progress, or the next start(), throws ExchangeError
  /// naming `reason` and what was still pending; the Exchange is then unusable. Only this rank
  /// stops: its peers end with their deadline error unless they abort too. Safe to call from
  /// another thread (a watchdog) while this one is in finish() or progress().
  void abort(std::string reason);

  /// Number of the last exchange started (0 before the first).
  std::uint64_t epoch() const;
  /// Strategy::resident: how many times a start launched the kernels again after they left the
  /// GPU idle (ExchangeOptions::idle_exit); 0 for the other strategies. A loop of back-to-back
  /// exchanges adds none.
  std::uint64_t relaunches() const;
  /// The strategy the exchange runs.
  Strategy strategy() const;
  /// The backend the exchange runs on.
  notify::Backend backend() const;
  /// This rank in options.comm.
  int rank() const;
  /// The messages as the exchange moves them: the config's, with each one cut into pieces for
  /// MPI (mpi_piece_bytes()) listed as its pieces, in order, under the config's tag.
  const RankMessages& messages() const;
  /// The size of the MPI pieces this rank's messages were cut into (ExchangeOptions::
  /// mpi_piece_bytes, or larger where the GPU cannot keep the blocks of smaller ones resident);
  /// 0 when none was cut.
  std::int64_t mpi_piece_bytes() const;
  /// How the kernels are launched, e.g. "pack: 26 blocks x 1024 threads; unpack: ...".
  std::string launch_description() const;
  /// The last finished exchange, message by message (needs ExchangeOptions::trace, else throws
  /// ExchangeError). Valid until the next exchange finishes.
  const ExchangeTimeline& last_timeline() const;

  /// The opaque handle a kernel of the caller's takes by value to pack and unpack this
  /// exchange's messages itself through haloflag/kernels/embedded_api.hpp
  /// (haloflag/kernels/device_plan.hpp, docs/embedding.md): device addresses on GPU backends and
  /// host addresses on the host backend. Meant for Strategy::embedded, where the Exchange
  /// launches nothing; available for every strategy. plan.fields() is the FieldSet given at
  /// construction; the kernel may pass plan.with_fields(other) for another FieldSet of the same
  /// extent and variable count (double buffering). plan.send_count() and plan.recv_count() are
  /// this rank's message counts, in the order of messages().sends and messages().recvs. Valid
  /// while the Exchange lives.
  kernels::DevicePlan device_plan() const;
  /// The same for `fields`, a FieldSet of the same extent and variable count: where they are the
  /// FieldSet given at construction or one given to map_fields(), the node senders that mapped
  /// them place their pieces straight into the ghost cells (no unpack); else as
  /// device_plan().with_fields(fields), through this rank's buffers. With direct placement the
  /// peers may write those ghost cells from the moment this rank starts an exchange on them
  /// until it completes: the kernel must not read them meanwhile.
  kernels::DevicePlan device_plan(const kernels::FieldSet& fields) const;
  /// Lets the node peers place straight into the ghost cells of `fields` too (a FieldSet of the
  /// same extent and variable count, not yet given): registers them as start(fields) would, and
  /// each node sender maps them (GPU backends, where IPC opens them; elsewhere its pieces keep
  /// going through the buffers). Returns their slot. Collective over the Exchange's ranks: call
  /// it with each rank's own sets, in the same order everywhere, while no exchange is in
  /// progress and no kernel of the caller's runs; with a strategy whose kernels stay on the GPU
  /// (resident, stacked_notify), before the first exchange, else it throws of kind usage. Then
  /// device_plan(fields) (Strategy::embedded) or start(fields) use the slot. Fields that do not
  /// fit, and ranks that disagree, throw ExchangeError of kind config on every rank.
  std::uint32_t map_fields(const kernels::FieldSet& fields);

  /// How this rank reaches each of its peers (ExchangeOptions::transport): node or mpi, and for
  /// node peers where their messages land.
  const std::vector<PeerTransport>& peer_transports() const;
  /// The order of work in use; for an Exchange built by tuned(), how it was chosen (tune()'s
  /// report), else fixed: the options' own order.
  const TuningReport& tuning() const;

  class Impl;

 private:
  /// The implementation, or ExchangeError when this Exchange has been moved from.
  Impl& impl() const;

  /// Shared only with the handles' weak references, so a handle can tell that its Exchange is gone.
  std::shared_ptr<Impl> impl_;
  TuningReport tuning_;
};

/// One exchange begun by Exchange::start(): wait() blocks until it is complete (every message
/// sent, received and unpacked on this rank), test() advances it without blocking and says
/// whether it is. A handle stays valid when its Exchange is moved; once the Exchange is destroyed,
/// or for a default-constructed handle, both throw ExchangeError of kind usage. A handle of an
/// earlier exchange reports complete.
class ExchangeHandle {
 public:
  ExchangeHandle() = default;
  /// The exchange's number (Exchange::epoch() when it began); 0: none.
  std::uint64_t epoch() const noexcept { return epoch_; }
  /// Blocks until the exchange is complete.
  void wait();
  /// Whether the exchange is complete; does not block.
  bool test();

 private:
  friend class Exchange;
  ExchangeHandle(std::weak_ptr<Exchange::Impl> impl, std::uint64_t epoch)
      : impl_(std::move(impl)), epoch_(epoch) {}
  std::shared_ptr<Exchange::Impl> lock() const;

  std::weak_ptr<Exchange::Impl> impl_;
  std::uint64_t epoch_ = 0;
};

}  // namespace haloflag::halo
