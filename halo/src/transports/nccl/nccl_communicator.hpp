// Internal: the nccl strategy's NCCL communicator (RCCL's on HIP), made from the Exchange's MPI
// communicator, and every wait on it bounded by the Exchange's timeout. NCCL's own calls wait
// for peers without a deadline: a peer that stops or dies leaves its kernels and its set-up
// waiting forever. So the communicator is non-blocking (ncclConfig_t::blocking = 0), each
// step's state is polled with ncclCommGetAsyncError against the deadline, and a step that
// misses it, or an error NCCL reports, aborts the communicator (ncclCommAbort: NCCL's kernels
// stop waiting) and becomes an ExchangeError naming this rank and its peers.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "transports/nccl/peer_spans.hpp"

struct ncclComm;  // NCCL's (and RCCL's) opaque communicator, ncclComm_t

namespace haloflag::halo::detail {

class NcclCommunicator {
 public:
  // Collective over `comm`: rank 0's unique id reaches every rank through MPI, then each rank
  // creates its communicator. `peers` are this rank's, named in errors. Throws ExchangeError
  // when a step fails or misses `timeout` (a rank that never joins: it failed before, stopped
  // or died), the communicator aborted.
  NcclCommunicator(MPI_Comm comm, std::vector<int> peers, std::chrono::nanoseconds timeout);
  // Flushes and destroys the communicator (ncclCommFinalize, ncclCommDestroy), or aborts it when
  // flushing misses the timeout or it was aborted already.
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  // Enqueues on `stream` (a cudaStream_t or hipStream_t), in one group, a ncclSend of each send
  // span of `send` and a ncclRecv of each receive span into `recv`. True once the group is on
  // the stream; false while NCCL still enqueues it (connecting to peers the first time):
  // ready() says when it is. Throws ExchangeError on an error.
  bool post(const PeerSpans& spans, const std::byte* send, std::byte* recv, void* stream);
  // True when no call is still being enqueued. Throws ExchangeError, naming the peers, when
  // NCCL reports an error (a peer that died, a network failure); the communicator is aborted.
  bool ready();
  // Ends the communicator now, so that NCCL's kernels waiting for peers return; every later call
  // throws. Safe to call more than once.
  void abort() noexcept;
  bool aborted() const { return comm_ == nullptr; }

  // "peer 1" or "peers 1, 3", for messages.
  std::string peers_text() const;

 private:
  // Polls the communicator's state until no operation is in progress or `timeout` passes;
  // returns the state (ncclInProgress when the time ran out), as an ncclResult_t.
  int settle(std::chrono::nanoseconds timeout) const;
  // Aborts, then throws ExchangeError: "NCCL: <step> ...: <NCCL's words>".
  [[noreturn]] void fail(const std::string& step, int result);
  [[noreturn]] void fail_deadline(const std::string& step);

  ncclComm* comm_ = nullptr;
  int rank_ = 0;
  int size_ = 0;
  std::vector<int> peers_;
  std::chrono::nanoseconds timeout_;
};

}  // namespace haloflag::halo::detail
