#include "copy_traffic.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "haloflag/notify/errors.hpp"

namespace haloflag::bench::interference {

CopyTraffic::CopyTraffic(std::string description, std::size_t bytes,
                         std::function<void()> prepare_thread, std::function<void()> copy_pair)
    : description_(std::move(description)),
      bytes_(bytes),
      prepare_thread_(std::move(prepare_thread)),
      copy_pair_(std::move(copy_pair)) {}

CopyTraffic::~CopyTraffic() {
  stop_requested_.store(true);
  if (thread_.joinable()) thread_.join();
}

void CopyTraffic::run() {
  try {
    prepare_thread_();
    while (!stop_requested_.load(std::memory_order_relaxed)) {
      copy_pair_();
      pairs_done_.fetch_add(1, std::memory_order_release);
    }
  } catch (...) {
    error_ = std::current_exception();
    failed_.store(true, std::memory_order_release);
  }
}

void CopyTraffic::join_and_rethrow() {
  stop_requested_.store(true);
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void CopyTraffic::start(std::chrono::nanoseconds deadline) {
  join_and_rethrow();
  stop_requested_.store(false);
  pairs_done_.store(0);
  failed_.store(false);
  thread_ = std::thread([this] { run(); });
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (pairs_done_.load(std::memory_order_acquire) == 0) {
    if (failed_.load(std::memory_order_acquire)) join_and_rethrow();
    if (std::chrono::steady_clock::now() > give_up) {
      join_and_rethrow();
      throw notify::NotifyError("the first pair of " + description_ + " did not complete within " +
                                std::to_string(std::chrono::duration<double>(deadline).count()) +
                                " s");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

std::uint64_t CopyTraffic::stop() {
  join_and_rethrow();
  return pairs_done_.load();
}

std::unique_ptr<CopyTraffic> make_host_copy_traffic(std::size_t bytes) {
  // Two source/destination pairs, one per direction, as the GPU version has.
  auto buffers = std::make_shared<std::vector<std::vector<unsigned char>>>(
      4, std::vector<unsigned char>(bytes, 1));
  return std::make_unique<CopyTraffic>(
      "memcpy of 2 x " + std::to_string(bytes) + " bytes by one CPU thread standing in for the "
      "copy engines (host backend: not GPU results)",
      bytes, [] {},
      [buffers, bytes] {
        std::vector<std::vector<unsigned char>>& b = *buffers;
        std::memcpy(b[1].data(), b[0].data(), bytes);
        std::memcpy(b[3].data(), b[2].data(), bytes);
        std::this_thread::yield();  // many ranks may share few cores (docs/design.md, rule 7)
      });
}

}  // namespace haloflag::bench::interference
