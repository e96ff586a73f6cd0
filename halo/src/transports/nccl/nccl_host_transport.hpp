// Internal: the host half of the nccl transport: the NCCL communicator and where each peer's
// messages lie in the device buffers (peer_spans.hpp). It has no device route: the fused pack
// kernel packs every message, and NCCL's own transfers (one ncclSend and one ncclRecv per peer
// in a group) run on the pack lane's stream before the unpack kernel, so the CPU only enqueues
// them. Only a strategy that orders its work on that stream can use it (Strategy::nccl).
#pragma once

#include <mpi.h>

#include <chrono>
#include <memory>

#include "exchange_resources.hpp"
#include "haloflag/halo/peer_spans.hpp"
#include "timeline_recorder.hpp"
#include "transports/host_transport.hpp"

namespace haloflag::halo::detail {

// Collective over `comm` (it creates the NCCL communicator, every wait within `timeout`); the
// transfers go on `stream`, a cudaStream_t or hipStream_t. A traced `timeline` gets the GPU's
// time of each step on the stream. Throws ExchangeError in builds without NCCL
// (strategy_unavailable() says so first).
std::unique_ptr<HostTransport> make_nccl_host_transport(MPI_Comm comm, PeerSpans spans,
                                                   std::chrono::nanoseconds timeout,
                                                   ExchangeResources& resources,
                                                   TimelineRecorder& timeline, void* stream);

}  // namespace haloflag::halo::detail
