// Internal: a blocking call that may wait for another process forever (a blocking NCCL
// communicator's set-up, its first group, its flush), bounded by a deadline. NCCL offers no way
// to stop such a call from outside, so the call runs on a thread of its own and the caller
// stops waiting at the deadline; the thread is left to end with the process.
#pragma once

#include <chrono>
#include <functional>

namespace haloflag::halo::detail {

// Runs `call` on a new thread and waits for it at most `timeout`. True when it returned in time
// (an exception it threw is rethrown here); false when it did not, the thread then detached, so
// `call` must own everything it touches (capture by value or by shared pointer).
bool returned_within(std::function<void()> call, std::chrono::nanoseconds timeout);

}  // namespace haloflag::halo::detail
