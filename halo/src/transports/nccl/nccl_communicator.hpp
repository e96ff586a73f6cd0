// Internal: the nccl strategy's NCCL communicator (RCCL's on HIP), made from the Exchange's MPI
// communicator, and every wait on a peer bounded by the Exchange's timeout. The communicator is
// blocking, so that each exchange's group is enqueued on the calling thread: a non-blocking
// one hands every ncclGroupEnd to a thread NCCL creates for it, and the unpack then waits for
// that thread. NCCL's calls that wait for peers without a deadline (the set-up, the first group,
// which connects to the peers, and the flush at the end) run watched (watched_call.hpp) and
// fail at the deadline; after the first group, a group only enqueues. A transfer whose peer
// stopped or died waits on the GPU: the Exchange's deadline ends it with abort()
// (ncclCommAbort: NCCL's kernels stop waiting), and an error NCCL reports (ready()) ends it
// sooner. Each failure becomes an ExchangeError naming this rank and its peers.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "haloflag/halo/peer_spans.hpp"

struct ncclComm;  // NCCL's (and RCCL's) opaque communicator, ncclComm_t

namespace haloflag::halo::detail {

class NcclCommunicator {
 public:
  // Collective over `comm`: rank 0's unique id reaches every rank through MPI, then each rank
  // creates its communicator. `peers` are this rank's, named in errors. Throws ExchangeError
  // when a step fails or misses `timeout` (a rank that never joins: it failed before, stopped
  // or died).
  NcclCommunicator(MPI_Comm comm, std::vector<int> peers, std::chrono::nanoseconds timeout);
  // Flushes and destroys the communicator (ncclCommFinalize, ncclCommDestroy) within the
  // timeout, or aborts it when flushing fails; a flush that misses the timeout is left to NCCL.
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  // Set-up, collective over the peers: enqueues one group of `spans` (as post() does), watched,
  // so that NCCL connects to every peer here and no exchange waits for a connection. Throws
  // ExchangeError when it fails or misses the timeout.
  void connect(const PeerSpans& spans, const std::byte* send, std::byte* recv, void* stream);
  // Enqueues on `stream` (a cudaStream_t or hipStream_t), in one group, a ncclSend of each send
  // span of `send` and a ncclRecv of each receive span into `recv`; the group is on the stream
  // when it returns (a blocking communicator). Nothing else: NCCL's error state is not read
  // here, so that the unpack kernel follows the group at once. Throws ExchangeError on an error.
  void post(const PeerSpans& spans, const std::byte* send, std::byte* recv, void* stream);
  // Throws ExchangeError, naming the peers, when NCCL reports an error (a peer that died, a
  // network failure); the communicator is aborted. Cheap (atomic loads inside NCCL), but not
  // needed on every poll: the exchange's deadline bounds a transfer NCCL never reports.
  void check_async_error();
  // Ends the communicator now, so that NCCL's kernels waiting for peers return; every later call
  // throws. Safe to call more than once.
  void abort() noexcept;
  bool aborted() const { return comm_ == nullptr; }

  // "peer 1" or "peers 1, 3", for messages.
  std::string peers_text() const;

 private:
  void create(const void* id);
  // Aborts, then throws ExchangeError: "NCCL: <step> ...: <NCCL's words>".
  [[noreturn]] void fail(const std::string& step, int result);
  // Throws the deadline's ExchangeError for `step`, which is still running inside NCCL: the
  // communicator is left to it (no abort while a call is inside) and this object drops it.
  [[noreturn]] void fail_deadline(const std::string& step);

  ncclComm* comm_ = nullptr;
  int rank_ = 0;
  int size_ = 0;
  int gpu_ = 0;  // the GPU the communicator was made on, given to its watched threads
  std::vector<int> peers_;
  std::chrono::nanoseconds timeout_;
};

}  // namespace haloflag::halo::detail
