#include "transports/nccl/nccl_communicator.hpp"

#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "haloflag/halo/errors.hpp"
#include "mpi_error_text.hpp"
#include "transports/nccl/nccl_api.hpp"
#include "transports/nccl/watched_call.hpp"

namespace haloflag::halo::detail {

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(std::chrono::nanoseconds duration) {
  return std::to_string(std::chrono::duration<double>(duration).count()) + " s";
}

// Rank 0's unique id to every rank, through a non-blocking broadcast tested until the deadline:
// a rank that never reaches it (it failed before) must not hold the others in MPI_Bcast.
void broadcast_unique_id(ncclUniqueId& id, MPI_Comm comm, int rank,
                         std::chrono::nanoseconds timeout) {
  MPI_Request request = MPI_REQUEST_NULL;
  int status = MPI_Ibcast(&id, sizeof id, MPI_BYTE, 0, comm, &request);
  const auto start = Clock::now();
  for (int done = 0; status == MPI_SUCCESS && done == 0;) {
    status = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done == 0 && Clock::now() - start > timeout) {
      throw ExchangeError(ErrorKind::peer, "NCCL: the broadcast of rank 0's unique id did not reach rank " +
                          std::to_string(rank) + " within " + seconds_text(timeout) +
                          ": a rank did not get to the NCCL set-up");
    }
    std::this_thread::yield();
  }
  if (status != MPI_SUCCESS) {
    throw ExchangeError(ErrorKind::mpi, "NCCL: the broadcast of rank 0's unique id failed: " +
                        mpi_error_text(status));
  }
}

// NCCL answers ncclInProgress while it still works on a call: not a failure.
bool fine(ncclResult_t result) { return result == ncclSuccess || result == ncclInProgress; }

// One group of a ncclSend per send span and a ncclRecv per receive span: the first failed
// call's result, else ncclGroupEnd's.
ncclResult_t enqueue_group(const PeerSpans& spans, const std::byte* send, std::byte* recv,
                           ncclComm_t comm, NcclStream stream) {
  ncclResult_t result = ncclGroupStart();
  for (const PeerSpan& span : spans.sends) {
    if (!fine(result)) break;
    result = ncclSend(send + span.offset, static_cast<std::size_t>(span.bytes), ncclUint8,
                      span.peer, comm, stream);
  }
  for (const PeerSpan& span : spans.recvs) {
    if (!fine(result)) break;
    result = ncclRecv(recv + span.offset, static_cast<std::size_t>(span.bytes), ncclUint8,
                      span.peer, comm, stream);
  }
  // A group once started is ended, also after a failed call, so that NCCL's group state is clean.
  const ncclResult_t ended = ncclGroupEnd();
  return fine(result) ? ended : result;
}

}  // namespace

NcclCommunicator::NcclCommunicator(MPI_Comm comm, std::vector<int> peers,
                                   std::chrono::nanoseconds timeout)
    : gpu_(current_gpu()), peers_(std::move(peers)), timeout_(timeout) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  ncclUniqueId id{};
  if (rank_ == 0) {
    const ncclResult_t made = ncclGetUniqueId(&id);
    if (made != ncclSuccess) fail("ncclGetUniqueId", made);
  }
  broadcast_unique_id(id, comm, rank_, timeout_);
  create(&id);
}

// ncclCommInitRankConfig, blocking, watched: a rank that never joins holds it forever.
void NcclCommunicator::create(const void* unique_id) {
  struct Made {
    ncclComm_t comm = nullptr;
    ncclResult_t result = ncclSuccess;
  };
  const auto made = std::make_shared<Made>();
  const ncclUniqueId id = *static_cast<const ncclUniqueId*>(unique_id);
  const int size = size_;
  const int rank = rank_;
  const int gpu = gpu_;
  const std::string step = "ncclCommInitRankConfig (rank " + std::to_string(rank_) + " of " +
                           std::to_string(size_) + ")";
  if (!returned_within(
          [made, id, size, rank, gpu] {
            use_gpu(gpu);
            ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
            config.blocking = 1;
            made->result = ncclCommInitRankConfig(&made->comm, size, id, rank, &config);
          },
          timeout_)) {
    fail_deadline(step);
  }
  comm_ = made->comm;
  if (made->result != ncclSuccess) fail(step, made->result);
}

NcclCommunicator::~NcclCommunicator() {
  if (comm_ == nullptr) return;
  const ncclComm_t comm = comm_;
  const int gpu = gpu_;
  const auto flushed = std::make_shared<ncclResult_t>(ncclSuccess);
  const bool in_time = returned_within(
      [comm, gpu, flushed] {
        use_gpu(gpu);
        *flushed = ncclCommFinalize(comm);
        if (*flushed == ncclSuccess) (void)ncclCommDestroy(comm);
      },
      timeout_);
  if (in_time && *flushed != ncclSuccess) abort();
  comm_ = nullptr;  // destroyed, aborted, or left to the flush still inside NCCL
}

void NcclCommunicator::connect(const PeerSpans& spans, const std::byte* send, std::byte* recv,
                               void* stream) {
  if (spans.sends.empty() && spans.recvs.empty()) return;
  const auto result = std::make_shared<ncclResult_t>(ncclSuccess);
  const ncclComm_t comm = comm_;
  const int gpu = gpu_;
  const auto gpu_stream = static_cast<NcclStream>(stream);
  const std::string step = "the first group of ncclSend/ncclRecv, which connects to " +
                           peers_text() + ",";
  if (!returned_within(
          [result, spans, send, recv, comm, gpu, gpu_stream] {
            use_gpu(gpu);
            *result = enqueue_group(spans, send, recv, comm, gpu_stream);
          },
          timeout_)) {
    fail_deadline(step);
  }
  if (!fine(*result)) fail(step, *result);
}

void NcclCommunicator::post(const PeerSpans& spans, const std::byte* send, std::byte* recv,
                            void* stream) {
  if (comm_ == nullptr) {
    throw ExchangeError(ErrorKind::usage, "NCCL: the communicator with " + peers_text() + " was aborted");
  }
  const ncclResult_t result =
      enqueue_group(spans, send, recv, comm_, static_cast<NcclStream>(stream));
  if (result != ncclSuccess) fail("the group of ncclSend/ncclRecv with " + peers_text(), result);
}

void NcclCommunicator::check_async_error() {
  if (comm_ == nullptr) {
    throw ExchangeError(ErrorKind::usage, "NCCL: the communicator with " + peers_text() + " was aborted");
  }
  ncclResult_t state = ncclSuccess;
  const ncclResult_t asked = ncclCommGetAsyncError(comm_, &state);
  if (asked != ncclSuccess) fail("ncclCommGetAsyncError", asked);
  // ncclInProgress: a blocking communicator has nothing in flight on the host; not an error.
  if (state != ncclSuccess && state != ncclInProgress) fail("the exchange with " + peers_text(), state);
}

void NcclCommunicator::abort() noexcept {
  if (comm_ == nullptr) return;
  (void)ncclCommAbort(comm_);
  comm_ = nullptr;
}

std::string NcclCommunicator::peers_text() const {
  if (peers_.empty()) return "no peers";
  std::string text = peers_.size() == 1 ? "peer " : "peers ";
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(peers_[i]);
  }
  return text;
}

void NcclCommunicator::fail(const std::string& step, int result) {
  const auto code = static_cast<ncclResult_t>(result);
  std::string text = "NCCL: " + step + " failed on rank " + std::to_string(rank_) + " (" +
                     peers_text() + "): " + ncclGetErrorString(code);
  const char* detail = ncclGetLastError(comm_);
  if (detail != nullptr && *detail != '\0') text += ": " + std::string(detail);
  abort();
  throw ExchangeError(ErrorKind::gpu, text + "; the NCCL communicator was aborted");
}

void NcclCommunicator::fail_deadline(const std::string& step) {
  comm_ = nullptr;
  throw ExchangeError(ErrorKind::timeout, "NCCL: " + step + " did not complete within " + seconds_text(timeout_) +
                      " on rank " + std::to_string(rank_) +
                      ": the communicator's other ranks did not all answer (this rank's " +
                      peers_text() + "; one may have failed before, stopped or died); the NCCL "
                      "communicator is left to that call");
}

}  // namespace haloflag::halo::detail
