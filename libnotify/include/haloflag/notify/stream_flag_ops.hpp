/// @file
/// Flag operations ordered on a caller's stream (docs/design.md, stream-ordered exchanges): a
/// store that happens once everything enqueued before it has finished, and a wait that holds
/// back everything enqueued after it. On the GPU backends these are stream memory operations
/// (cuStreamWriteValue64/cuStreamWaitValue64, hipStreamWriteValue64/hipStreamWaitValue64): the
/// GPU's front end runs them, no kernel is launched and the host never blocks. On the host
/// backend they are work on a HostQueue.
///
/// Addresses are the ones kernels use (device addresses of device memory or of mapped host
/// memory). A stream wait has no deadline of its own: whoever owns the word must store
/// kReleaseStreamWaits into it when the awaited value will never come, so no stream waits
/// forever. The host queue's wait also gives up after `timeout` and faults the queue.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/stream_release.hpp"
#include "haloflag/notify/work_stream.hpp"

namespace haloflag::notify {

/// Throws NotifyError when `stream` does not belong to `backend` (a HostQueue on a GPU backend
/// or a GPU stream on the host backend) or the GPU cannot run 64-bit stream memory operations.
void check_stream(Backend backend, WorkStream stream);

/// Once the work enqueued before it is done (and its writes visible, system-wide): *word = value.
void enqueue_store(Backend backend, WorkStream stream, std::uint64_t* word, std::uint64_t value);
/// The same for a 32-bit word.
void enqueue_store(Backend backend, WorkStream stream, std::uint32_t* word, std::uint32_t value);

/// Work enqueued after this starts once *word >= value. `name` names the word in the host
/// queue's timeout fault.
void enqueue_wait(Backend backend, WorkStream stream, const std::uint64_t* word,
                  std::uint64_t value, std::chrono::nanoseconds timeout, const std::string& name);

}  // namespace haloflag::notify
