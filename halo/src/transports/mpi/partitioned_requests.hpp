// Internal: the pieces of cut messages over MPI 4 partitioned communication. Each cut message
// is one partitioned request per side (MPI_Psend_init, MPI_Precv_init), made once at set-up,
// with a partition per slab of the message; a piece is a range of partitions. Every exchange
// starts the requests, marks a piece's partitions ready when the GPU has packed it
// (MPI_Pready_range), sees a received piece land when all its partitions have arrived
// (MPI_Parrived), and completes each request (MPI_Test) before the next exchange starts it.
// MPICH before 4.1 tracks arrival only for the whole message (its own source says so): there
// the receiver tests each request whole and hands all its pieces to the GPU together.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/message_layouts.hpp"
#include "message_names.hpp"
#include "transports/mpi/message_pieces.hpp"

namespace haloflag::halo::detail {

class PartitionedRequests {
 public:
  // Requests for every message of `pieced` cut into pieces. Throws ExchangeError naming the
  // message when an MPI call fails, and ConfigError where MPI has no partitioned communication.
  PartitionedRequests(MPI_Comm comm, const PiecedMessages& pieced, const MessageLayouts& layouts,
                      std::byte* send_buffer, std::byte* recv_buffer, const MessageNames& names);
  ~PartitionedRequests();  // frees the requests (cancel())
  PartitionedRequests(const PartitionedRequests&) = delete;
  PartitionedRequests& operator=(const PartitionedRequests&) = delete;

  // Whether moved message `m` (send or receive) is a piece these requests carry.
  bool owns_send(std::size_t m) const { return send_parent_[m] >= 0; }
  bool owns_recv(std::size_t r) const { return recv_parent_[r] >= 0; }

  // Starts every request of the exchange; the previous exchange's must have completed.
  void start();
  // Send piece `m` is packed: its partitions may go.
  void ready(std::size_t m);
  // Appends the receive pieces that have landed since the last call.
  void test_arrivals(std::vector<std::size_t>& arrived);
  // Tests the requests; true when every one has completed (every piece sent and received).
  bool test_complete();

  // What is not done yet, for deadline errors.
  std::string pending() const;
  void cancel() noexcept;

 private:
  struct Parent {
    MPI_Request request = MPI_REQUEST_NULL;
    std::size_t first_piece = 0;  // index of its piece 0 among the moved messages
    bool active = false;          // started and not yet completed
  };
  // A receive piece not landed yet, and the next of its partitions to ask about.
  struct Awaited {
    std::size_t piece;
    std::int64_t next_unit;
  };

  const PiecedMessages* pieced_;
  const MessageNames* names_;
  std::vector<Parent> send_parents_;
  std::vector<Parent> recv_parents_;
  std::vector<int> send_parent_;  // by moved send: index into send_parents_, -1 if whole
  std::vector<int> recv_parent_;
  std::vector<bool> send_ready_;  // by moved send, this exchange
  std::vector<Awaited> awaited_;
  std::size_t parents_active_ = 0;
};

}  // namespace haloflag::halo::detail
