// The plain NCCL program that halo_bench runs beside the nccl strategy, in the same rotation, so
// that the strategy's distance from what a user writes by hand is measured in one run. Per
// exchange it does what such a program does and nothing else: the fused pack kernel, one
// ncclSend and one ncclRecv per peer in one group on a blocking communicator, the fused unpack
// kernel, all on one stream, and one cudaStreamSynchronize (hipStreamSynchronize). It uses the
// same kernels (the library's KernelRunner, whose stream it shares with NCCL) and the same
// spans per peer as the strategy, so the two differ only in what the Exchange adds around them.
//
// Like a user's program it bounds none of its waits: halo_bench's barrier before each exchange
// has a deadline, a rank that fails ends every rank with MPI_Abort, and a rank that dies ends
// the job through mpiexec.
#pragma once

#include <memory>
#include <string>

#include "haloflag/halo/device_fields.hpp"
#include "strategy_benchmark.hpp"
#include "timed_exchange.hpp"

namespace haloflag::bench {

// Its row's name in the table and the JSON report.
inline constexpr const char* kPlainNcclName = "nccl:plain";

// Collective over settings.comm: the communicator (rank 0's unique id over MPI), the buffers,
// the kernels' plan over `fields` (which must outlive it). Throws std::runtime_error where the
// build has no NCCL, or on an error of NCCL or the GPU runtime.
std::unique_ptr<TimedExchange> make_plain_nccl(const BenchRunSettings& settings,
                                               halo::DeviceFields& fields);

// Its steps, for the report's launch description.
std::string plain_nccl_description();

}  // namespace haloflag::bench
