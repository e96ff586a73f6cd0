#include "transports/mpi/mpi_host_transport.hpp"

#include <utility>

namespace haloflag::halo::detail {

MpiHostTransport::MpiHostTransport(std::unique_ptr<MessageRequests> requests,
                                   ExchangeResources& resources, TimelineRecorder& timeline,
                                   MpiWorkOrder order)
    : requests_(std::move(requests)), resources_(resources), timeline_(timeline), order_(order) {
  for (std::size_t r = 0; r < requests_->recv_count(); ++r) {
    receive_count_ += requests_->over_mpi_recv(r) ? 1 : 0;
  }
}

void MpiHostTransport::start(std::uint64_t) {
  unsent_.clear();
  short_sends_unsent_ = 0;
  for (std::size_t m = 0; m < requests_->send_count(); ++m) {
    if (!requests_->over_mpi_send(m)) continue;
    unsent_.push_back(m);
    if (!is_long_send(m)) ++short_sends_unsent_;
  }
  short_receives_tested_ = false;
  awaiting_unpack_.clear();
  received_ = 0;
  requests_->post_receives(order_.on_arrival_from_bytes);
}

bool MpiHostTransport::progress(std::uint64_t epoch) {
  kernels_signal_ = true;
  send_packed_messages(epoch);
  // Sends first: MPI moves received data on this CPU thread inside the receive tests (long
  // for large messages), and a send found ready meanwhile would wait for it. The packs never
  // wait for MPI, so the short sends are posted without receive progress. Once they are out,
  // the long sends still need the GPU a while, and one receive test takes in the peer's short
  // messages meanwhile: Open MPI work that would otherwise come after the last send. Long
  // sends in turn are signalled one after another over that time and the peer's first long
  // messages arrive meanwhile, so then the receives are tested on every pass, one arrived
  // long receive posted (copied) at a time. (Testing on every pass while the long sends pack
  // all together delays the last send more than it gains: docs/results/exchange_journal.md.)
  if (!unsent_.empty()) {
    if (short_sends_unsent_ == 0 &&
        (order_.receives_between_sends || !short_receives_tested_)) {
      short_receives_tested_ = true;
      signal_completed_receives(epoch);
      if (order_.receives_between_sends) post_arrived_receive();
      // Reports what the first call's progress completed: Open MPI's MPI_Testsome reports
      // only requests that were complete when it was called.
      signal_completed_receives(epoch);
    }
    return false;
  }
  signal_completed_receives(epoch);
  // Long receives posted on arrival, one at a time: posting it copies the message (Open MPI's
  // shared-memory transport), and the GPU unpacks it while the next one is copied. Every
  // arrived one is posted before the sends are tested and the unpack flags read, so that work
  // does not fall between two copies.
  while (post_arrived_receive()) signal_completed_receives(epoch);
  timeline_.mpi_call_begin();
  const bool sends_done = requests_->test_sends();
  timeline_.mpi_call_end(MpiCall::test_sends, 0);
  // Only receives already handed to the GPU can be unpacked: each flag read is a cache miss.
  std::erase_if(awaiting_unpack_, [&](std::size_t r) {
    if (!resources_.unpack_done.test(static_cast<std::uint32_t>(r), epoch)) return false;
    timeline_.unpack_done_seen(r);
    return true;
  });
  return sends_done && received_ == receive_count_ && awaiting_unpack_.empty();
}

// Each send as soon as the GPU has packed it.
void MpiHostTransport::send_packed_messages(std::uint64_t epoch) {
  std::erase_if(unsent_, [&](std::size_t m) {
    if (!resources_.send_ready.test(static_cast<std::uint32_t>(m), epoch)) return false;
    timeline_.send_ready_seen(m);
    requests_->send(m);
    timeline_.send_posted(m);
    if (!is_long_send(m)) --short_sends_unsent_;
    return true;
  });
}

// Tests the posted receives and hands each completed one to the GPU.
void MpiHostTransport::signal_completed_receives(std::uint64_t epoch) {
  completed_.clear();
  timeline_.mpi_call_begin();
  requests_->test_receives(completed_);
  timeline_.mpi_call_end(MpiCall::test_receives, completed_.size());
  for (std::size_t r : completed_) {
    timeline_.received(r);
    resources_.unpack_ready.signal(static_cast<std::uint32_t>(r), epoch);
    awaiting_unpack_.push_back(r);
  }
  received_ += completed_.size();
}

// Posts one long receive whose message has arrived (AdvancedOptions::long_receives_on_arrival).
bool MpiHostTransport::post_arrived_receive() {
  timeline_.mpi_call_begin();
  const bool posted = requests_->post_arrived_receive();
  timeline_.mpi_call_end(MpiCall::post_arrived_receive, posted ? 1 : 0);
  return posted;
}

void MpiHostTransport::send_packed(std::uint64_t) {
  for (const std::size_t m : unsent_) {
    requests_->send(m);
    timeline_.send_posted(m);
  }
  unsent_.clear();
}

bool MpiHostTransport::delivered(std::uint64_t) {
  completed_.clear();
  requests_->test_receives(completed_);
  for (std::size_t r : completed_) timeline_.received(r);
  const bool sends_done = requests_->test_sends();
  return sends_done && requests_->receives_complete();
}

std::string MpiHostTransport::pending(std::uint64_t epoch) const {
  std::string text = requests_->pending();
  if (!kernels_signal_) return text;  // the bulk strategies' sends wait for their pack kernel
  for (std::size_t m : unsent_) {
    text += "\n  send_ready[" + std::to_string(m) + "] = " +
            std::to_string(resources_.send_ready.value(static_cast<std::uint32_t>(m))) +
            ", waiting for " + std::to_string(epoch);
  }
  for (std::size_t r : awaiting_unpack_) {
    text += "\n  unpack_done[" + std::to_string(r) + "] = " +
            std::to_string(resources_.unpack_done.value(static_cast<std::uint32_t>(r))) +
            " (unpack_ready " +
            std::to_string(resources_.unpack_ready.value(static_cast<std::uint32_t>(r))) +
            "), waiting for " + std::to_string(epoch);
  }
  return text;
}

}  // namespace haloflag::halo::detail
