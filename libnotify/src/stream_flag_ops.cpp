#include "haloflag/notify/stream_flag_ops.hpp"

#include <atomic>
#include <thread>

#include "gpu_stream_ops.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::notify {

namespace {

template <class Word>
void store_release(Word* word, Word value) {
  std::atomic_ref<Word>(*word).store(value, std::memory_order_release);
}

}  // namespace

void check_stream(Backend backend, WorkStream stream) {
  if (backend == Backend::host) {
    if (!stream.is_host_queue()) {
      throw NotifyError(ErrorKind::usage, "the host backend orders work on a HostQueue, not on a GPU stream");
    }
    return;
  }
  if (stream.is_host_queue()) {
    throw NotifyError(ErrorKind::usage, "the " + std::string(to_string(backend)) +
                      " backend orders work on a GPU stream, not on a HostQueue");
  }
  detail::gpu_check_stream_memory_ops();
}

void enqueue_store(Backend backend, WorkStream stream, std::uint64_t* word, std::uint64_t value) {
  if (backend == Backend::host) {
    stream.host_queue()->enqueue([word, value] { store_release(word, value); });
  } else {
    detail::gpu_stream_store64(stream.gpu_stream(), word, value);
  }
}

void enqueue_store(Backend backend, WorkStream stream, std::uint32_t* word, std::uint32_t value) {
  if (backend == Backend::host) {
    stream.host_queue()->enqueue([word, value] { store_release(word, value); });
  } else {
    detail::gpu_stream_store32(stream.gpu_stream(), word, value);
  }
}

void enqueue_wait(Backend backend, WorkStream stream, const std::uint64_t* word,
                  std::uint64_t value, std::chrono::nanoseconds timeout, const std::string& name) {
  if (backend != Backend::host) {
    detail::gpu_stream_wait64(stream.gpu_stream(), word, value);
    return;
  }
  stream.host_queue()->enqueue([word, value, timeout, name] {
    auto* watched = const_cast<std::uint64_t*>(word);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // The same comparison as the GPUs' stream waits.
    while (static_cast<std::int64_t>(
               std::atomic_ref<std::uint64_t>(*watched).load(std::memory_order_acquire) - value) <
           0) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw NotifyError(ErrorKind::timeout, "stream wait on " + name + " timed out: expected >= " +
                          std::to_string(value) + ", last seen " +
                          std::to_string(std::atomic_ref<std::uint64_t>(*watched).load()));
      }
      std::this_thread::yield();
    }
  });
}

}  // namespace haloflag::notify
