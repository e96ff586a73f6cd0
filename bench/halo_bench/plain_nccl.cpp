#include "plain_nccl.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#if defined(HALOFLAG_HAVE_RCCL)
#include <rccl/rccl.h>
#else
#include <nccl.h>
#endif

#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/peer_spans.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/kernels/standalone_runner.hpp"

namespace haloflag::bench {

namespace {

#if defined(HALOFLAG_HAVE_RCCL)
using NcclStream = hipStream_t;
#else
using NcclStream = cudaStream_t;
#endif
using halo::PeerSpan;
using kernels::KernelOp;
using kernels::Lane;

void check_nccl(ncclResult_t result, const char* call) {
  if (result != ncclSuccess) {
    throw std::runtime_error(std::string("the plain NCCL program: ") + call + ": " +
                             ncclGetErrorString(result));
  }
}

kernels::DeviceMemory upload(notify::Backend backend,
                             const std::vector<kernels::MessageLayout>& layouts) {
  const std::size_t bytes = sizeof(kernels::MessageLayout) * std::max<std::size_t>(layouts.size(), 1);
  kernels::DeviceMemory memory(backend, bytes);
  if (!layouts.empty()) memory.copy_from_host(layouts.data(), bytes);
  return memory;
}

kernels::DeviceMemory buffer(notify::Backend backend, std::int64_t bytes) {
  return kernels::DeviceMemory(backend, static_cast<std::size_t>(std::max<std::int64_t>(bytes, 1)));
}

kernels::BufferedMessages buffered(const kernels::DeviceMemory& layouts, std::size_t count,
                                   const kernels::DeviceMemory& buffer) {
  return {static_cast<const kernels::MessageLayout*>(layouts.data()),
          static_cast<std::uint32_t>(count), static_cast<std::byte*>(buffer.data())};
}

class PlainNccl final : public TimedExchange {
 public:
  PlainNccl(const BenchRunSettings& settings, halo::DeviceFields& fields) {
    const notify::Backend backend = settings.exchange_options.backend;
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(settings.comm, &rank);
    MPI_Comm_size(settings.comm, &size);
    const halo::ExchangeConfig& config = *settings.config;
    halo::MessageLayouts layouts = halo::make_message_layouts(config, rank);
    spans_ = halo::arrange_by_peer(config.rank_messages.at(static_cast<std::size_t>(rank)),
                                   layouts);
    send_layouts_ = upload(backend, layouts.sends);
    recv_layouts_ = upload(backend, layouts.recvs);
    send_buffer_ = buffer(backend, layouts.send_buffer_bytes);
    recv_buffer_ = buffer(backend, layouts.recv_buffer_bytes);
    // The fused kernels read the layouts, the fields and the buffers alone.
    runner_ = kernels::make_standalone_runner(
        backend, buffered(send_layouts_, layouts.sends.size(), send_buffer_),
        buffered(recv_layouts_, layouts.recvs.size(), recv_buffer_), fields.view(),
        settings.exchange_options.advanced.launch);
    stream_ = static_cast<NcclStream>(runner_->gpu_stream(Lane::pack));
    ncclUniqueId id{};
    if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, settings.comm);
    check_nccl(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
  }

  ~PlainNccl() override {
    if (comm_ != nullptr) (void)ncclCommDestroy(comm_);
  }

  PlainNccl(const PlainNccl&) = delete;
  PlainNccl& operator=(const PlainNccl&) = delete;

  std::uint64_t epoch() const override { return epoch_; }
  std::string name() const override { return kPlainNcclName; }

  void run() override {
    ++epoch_;
    runner_->launch(KernelOp::fused_pack, epoch_);
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    auto* send = static_cast<const std::byte*>(send_buffer_.data());
    auto* recv = static_cast<std::byte*>(recv_buffer_.data());
    for (const PeerSpan& span : spans_.sends) {
      check_nccl(ncclSend(send + span.offset, static_cast<std::size_t>(span.bytes), ncclUint8,
                          span.peer, comm_, stream_),
                 "ncclSend");
    }
    for (const PeerSpan& span : spans_.recvs) {
      check_nccl(ncclRecv(recv + span.offset, static_cast<std::size_t>(span.bytes), ncclUint8,
                          span.peer, comm_, stream_),
                 "ncclRecv");
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
    runner_->launch(KernelOp::fused_unpack, epoch_);
    runner_->synchronize(Lane::pack);
  }

 private:
  halo::PeerSpans spans_;
  kernels::DeviceMemory send_layouts_;
  kernels::DeviceMemory recv_layouts_;
  kernels::DeviceMemory send_buffer_;
  kernels::DeviceMemory recv_buffer_;
  std::unique_ptr<kernels::KernelRunner> runner_;  // after the memory its kernels use
  NcclStream stream_ = nullptr;
  ncclComm_t comm_ = nullptr;
  std::uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<TimedExchange> make_plain_nccl(const BenchRunSettings& settings,
                                               halo::DeviceFields& fields) {
  return std::make_unique<PlainNccl>(settings, fields);
}

std::string plain_nccl_description() {
  return "the fused pack, one ncclSend and one ncclRecv per peer in one group (a blocking "
         "communicator), the fused unpack, all on one stream, then one stream synchronize: "
         "the same kernels and spans as nccl, without the Exchange";
}

}  // namespace haloflag::bench
