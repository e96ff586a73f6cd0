// Internal: the host half of the mpi transport: the CPU state machine of the paper's Fig. 5
// over the messages MPI carries. With the flag strategies the blocks signal send_ready, the CPU
// sends each message as soon as it is packed, hands each completed receive to the GPU
// (unpack_ready) and sees it unpacked (unpack_done). With the bulk strategies it sends every
// message once the pack kernel has finished and reports when all have arrived.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exchange_resources.hpp"
#include "message_names.hpp"
#include "timeline_recorder.hpp"
#include "transports/host_transport.hpp"
#include "transports/mpi/message_requests.hpp"

namespace haloflag::halo::detail {

// How the CPU orders its MPI work (AdvancedOptions; docs/exchange.md, "What to set when").
struct MpiWorkOrder {
  // Receives of at least this many bytes are posted once their message has arrived; 0: all at
  // start().
  std::int64_t on_arrival_from_bytes = 0;
  // Long sends are packed in turn: receives progress while sends still wait.
  bool receives_between_sends = false;
};

class MpiHostTransport final : public HostTransport {
 public:
  // `requests` carries exactly the messages of this transport; `resources` holds the flags.
  MpiHostTransport(std::unique_ptr<MessageRequests> requests, ExchangeResources& resources,
                   TimelineRecorder& timeline, MpiWorkOrder order);

  std::string_view name() const override { return "mpi"; }
  DeviceWork device_work() const override { return DeviceWork::message_blocks; }
  bool carries_send(std::size_t m) const override { return requests_->over_mpi_send(m); }
  bool carries_recv(std::size_t r) const override { return requests_->over_mpi_recv(r); }

  void start(std::uint64_t epoch) override;
  std::string pending(std::uint64_t epoch) const override;
  void abandon() noexcept override { requests_->cancel(); }

  bool progress(std::uint64_t epoch) override;

  bool receivers_ready(std::uint64_t) const override { return true; }
  void send_packed(std::uint64_t epoch) override;
  bool delivered(std::uint64_t epoch) override;
  void unpacked(std::uint64_t) override {}

 private:
  void send_packed_messages(std::uint64_t epoch);
  void signal_completed_receives(std::uint64_t epoch);
  bool post_arrived_receive();
  bool is_long_send(std::size_t m) const {
    return kernels::is_long(resources_.plan, resources_.layouts.sends[m]);
  }

  std::unique_ptr<MessageRequests> requests_;
  ExchangeResources& resources_;
  TimelineRecorder& timeline_;
  MpiWorkOrder order_;
  std::size_t receive_count_ = 0;         // receives MPI carries
  std::uint32_t short_sends_unsent_ = 0;  // short sends not posted yet this exchange
  bool short_receives_tested_ = false;    // receives tested since the short sends are out
  std::vector<std::size_t> unsent_;       // sends not posted yet
  std::size_t received_ = 0;              // receives completed this exchange
  std::vector<std::size_t> awaiting_unpack_;  // received, unpack_done not seen yet
  std::vector<std::size_t> completed_;        // scratch for test_receives
  bool kernels_signal_ = false;  // a flag strategy drives it: its kernels signal each message
};

}  // namespace haloflag::halo::detail
