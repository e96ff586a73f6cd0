// Internal: the MPI side of one rank's exchange: a receive per incoming message and a send per
// outgoing one, straight from the pinned buffers, tested without blocking. Every MPI error and
// every size mismatch becomes an ExchangeError naming the message. Messages of the node
// transport are not MPI's: they are never posted and count as complete. Pieces of a cut message
// (message_pieces.hpp) are messages like the others, each with its own request, or with
// `partitioned` one partitioned request per cut message carries them (partitioned_requests.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "message_names.hpp"
#include "transports/mpi/partitioned_requests.hpp"

namespace haloflag::halo::detail {

class MessageRequests {
 public:
  // `sends_elsewhere` and `recvs_elsewhere` mark the messages MPI does not carry: another
  // transport's, or under the nccl strategy every one (empty: none). With
  // `persistent`, each MPI message gets a persistent request once (MPI_Send_init,
  // MPI_Recv_init) that every exchange starts (MPI_Start), as Comb's mpi_persistent does.
  // `pieced`: where `messages` (its .wire) come from, which must outlive this; with
  // `partitioned` its cut messages travel as partitioned requests.
  MessageRequests(MPI_Comm comm, const RankMessages& messages, const MessageLayouts& layouts,
                  std::byte* send_buffer, std::byte* recv_buffer, const MessageNames& names,
                  std::vector<bool> sends_elsewhere = {},
                  std::vector<bool> recvs_elsewhere = {},
                  bool persistent = false, const PiecedMessages* pieced = nullptr,
                  bool partitioned = false);
  ~MessageRequests();  // cancels and frees whatever is still pending
  MessageRequests(const MessageRequests&) = delete;
  MessageRequests& operator=(const MessageRequests&) = delete;

  std::size_t send_count() const { return send_requests_.size(); }
  std::size_t recv_count() const { return recv_requests_.size(); }
  bool over_mpi_send(std::size_t m) const {
    return sends_elsewhere_.empty() || !sends_elsewhere_[m];
  }
  bool over_mpi_recv(std::size_t r) const {
    return recvs_elsewhere_.empty() || !recvs_elsewhere_[r];
  }

  // Posts every receive of fewer than `on_arrival_from_bytes` bytes (0: every receive); the
  // others wait for post_arrived_receive(). Pieces are always posted here: each is small, and
  // probing for dozens of them one by one costs more than it gains. Starts the partitioned
  // requests too. The previous exchange's requests must all have completed.
  void post_receives(std::int64_t on_arrival_from_bytes = 0);
  // Posts the first receive left for its arrival whose message has arrived (MPI_Iprobe), and
  // returns whether it did (false at once when none is left). Under Open MPI's shared-memory
  // transport a posted receive whose message has arrived is copied right away, one message per
  // call, instead of all of them in one receive test.
  bool post_arrived_receive();
  void send(std::size_t index);

  // Appends the receives that completed since the last call to `completed` (sizes checked).
  void test_receives(std::vector<std::size_t>& completed);
  // True when every receive has completed (the bulk strategies, which never cut messages).
  bool receives_complete() const { return receives_pending_ == 0; }
  // Tests the posted sends; true when every send was posted and has completed, and every
  // partitioned request too (its pieces may all have landed before MPI completes it).
  bool test_sends();

  // The messages not yet done, for deadline errors: "send to peer 1 tag 3 (...) not posted".
  std::string pending() const;
  // Cancels pending receives and frees every request (after a failure).
  void cancel() noexcept;

 private:
  // Names the failed call only on failure: building the text on every call cost each MPI call
  // of the exchange a few string allocations.
  template <class Describe>
  void check(int status, Describe describe) const {
    if (status != MPI_SUCCESS) fail(status, describe());
  }
  [[noreturn]] void fail(int status, const std::string& what) const;
  void post_receive(std::size_t r);
  bool test_point_to_point_sends();
  bool partitioned_send(std::size_t m) const { return partitioned_ && partitioned_->owns_send(m); }
  bool partitioned_recv(std::size_t r) const { return partitioned_ && partitioned_->owns_recv(r); }

  MPI_Comm comm_;
  const RankMessages* messages_;
  const MessageLayouts* layouts_;
  std::byte* send_buffer_;
  std::byte* recv_buffer_;
  const MessageNames* names_;
  std::vector<MPI_Request> send_requests_;
  std::vector<MPI_Request> recv_requests_;
  std::vector<bool> send_posted_;
  std::vector<bool> sends_elsewhere_;
  std::vector<bool> recvs_elsewhere_;
  bool persistent_ = false;
  // Started and not yet complete: a persistent request stays allocated when it completes.
  std::vector<bool> send_active_;
  std::vector<bool> recv_active_;
  std::size_t mpi_sends_ = 0;
  std::size_t mpi_recvs_ = 0;
  std::vector<std::size_t> unposted_;  // receives posted on arrival, not yet posted
  std::size_t sends_pending_ = 0;     // posted and not yet complete, or not yet posted
  std::size_t receives_pending_ = 0;
  std::vector<int> completed_indexes_;  // scratch for MPI_Testsome
  std::vector<MPI_Status> statuses_;
  const PiecedMessages* pieced_ = nullptr;
  std::unique_ptr<PartitionedRequests> partitioned_;
};

}  // namespace haloflag::halo::detail
