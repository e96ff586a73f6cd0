#include "transports/mpi/message_requests.hpp"

#include <algorithm>
#include <utility>

#include "haloflag/halo/errors.hpp"
#include "mpi_error_text.hpp"

namespace haloflag::halo::detail {

MessageRequests::MessageRequests(MPI_Comm comm, const RankMessages& messages,
                                 const MessageLayouts& layouts, std::byte* send_buffer,
                                 std::byte* recv_buffer, const MessageNames& names,
                                 std::vector<bool> sends_elsewhere,
                                 std::vector<bool> recvs_elsewhere,
                                 bool persistent, const PiecedMessages* pieced,
                                 bool partitioned)
    : comm_(comm),
      messages_(&messages),
      layouts_(&layouts),
      send_buffer_(send_buffer),
      recv_buffer_(recv_buffer),
      names_(&names),
      send_requests_(messages.sends.size(), MPI_REQUEST_NULL),
      recv_requests_(messages.recvs.size(), MPI_REQUEST_NULL),
      send_posted_(messages.sends.size(), false),
      sends_elsewhere_(std::move(sends_elsewhere)),
      recvs_elsewhere_(std::move(recvs_elsewhere)),
      persistent_(persistent),
      send_active_(messages.sends.size(), false),
      recv_active_(messages.recvs.size(), false),
      completed_indexes_(std::max(messages.sends.size(), messages.recvs.size())),
      statuses_(std::max(messages.sends.size(), messages.recvs.size())),
      pieced_(pieced) {
  if (partitioned && pieced != nullptr && pieced->any_cut()) {
    partitioned_ = std::make_unique<PartitionedRequests>(comm, *pieced, layouts, send_buffer,
                                                         recv_buffer, names);
  }
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    mpi_sends_ += over_mpi_send(m) && !partitioned_send(m) ? 1 : 0;
  }
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    mpi_recvs_ += over_mpi_recv(r) && !partitioned_recv(r) ? 1 : 0;
  }
  if (!persistent_) return;
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    if (!over_mpi_send(m) || partitioned_send(m)) continue;
    const Message& s = messages.sends[m];
    check(MPI_Send_init(send_buffer_ + layouts.sends[m].buffer_offset, static_cast<int>(s.bytes),
                        MPI_BYTE, s.peer, s.tag, comm_, &send_requests_[m]),
          [&] { return "MPI_Send_init for " + names.send(m); });
  }
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    if (!over_mpi_recv(r) || partitioned_recv(r)) continue;
    const Message& s = messages.recvs[r];
    check(MPI_Recv_init(recv_buffer_ + layouts.recvs[r].buffer_offset, static_cast<int>(s.bytes),
                        MPI_BYTE, s.peer, s.tag, comm_, &recv_requests_[r]),
          [&] { return "MPI_Recv_init for " + names.recv(r); });
  }
}

MessageRequests::~MessageRequests() { cancel(); }

void MessageRequests::fail(int status, const std::string& what) const {
  throw ExchangeError(ErrorKind::mpi, what + " failed: " + mpi_error_text(status));
}

void MessageRequests::post_receive(std::size_t r) {
  if (persistent_) {
    check(MPI_Start(&recv_requests_[r]), [&] { return "MPI_Start for " + names_->recv(r); });
  } else {
    const Message& m = messages_->recvs[r];
    check(MPI_Irecv(recv_buffer_ + layouts_->recvs[r].buffer_offset, static_cast<int>(m.bytes),
                    MPI_BYTE, m.peer, m.tag, comm_, &recv_requests_[r]),
          [&] { return "MPI_Irecv for " + names_->recv(r); });
  }
  recv_active_[r] = true;
}

void MessageRequests::post_receives(std::int64_t on_arrival_from_bytes) {
  unposted_.clear();
  for (std::size_t r = 0; r < recv_requests_.size(); ++r) {
    if (!over_mpi_recv(r) || partitioned_recv(r)) continue;
    const bool piece = pieced_ != nullptr && pieced_->recvs[r].pieces > 1;
    if (on_arrival_from_bytes > 0 && !piece && messages_->recvs[r].bytes >= on_arrival_from_bytes) {
      unposted_.push_back(r);
    } else {
      post_receive(r);
    }
  }
  receives_pending_ = mpi_recvs_;
  std::fill(send_posted_.begin(), send_posted_.end(), false);
  sends_pending_ = mpi_sends_;
  if (partitioned_) partitioned_->start();
}

bool MessageRequests::post_arrived_receive() {
  for (auto it = unposted_.begin(); it != unposted_.end(); ++it) {
    const Message& m = messages_->recvs[*it];
    int arrived = 0;
    check(MPI_Iprobe(m.peer, m.tag, comm_, &arrived, MPI_STATUS_IGNORE),
          [&] { return "MPI_Iprobe for " + names_->recv(*it); });
    if (!arrived) continue;
    post_receive(*it);
    unposted_.erase(it);
    return true;
  }
  return false;
}

void MessageRequests::send(std::size_t index) {
  if (partitioned_send(index)) {
    partitioned_->ready(index);
    send_posted_[index] = true;
    return;
  }
  if (persistent_) {
    check(MPI_Start(&send_requests_[index]),
          [&] { return "MPI_Start for " + names_->send(index); });
  } else {
    const Message& m = messages_->sends[index];
    check(MPI_Isend(send_buffer_ + layouts_->sends[index].buffer_offset,
                    static_cast<int>(m.bytes), MPI_BYTE, m.peer, m.tag, comm_,
                    &send_requests_[index]),
          [&] { return "MPI_Isend for " + names_->send(index); });
  }
  send_posted_[index] = true;
  send_active_[index] = true;
}

void MessageRequests::test_receives(std::vector<std::size_t>& completed) {
  if (partitioned_) partitioned_->test_arrivals(completed);
  if (receives_pending_ == 0) return;
  int count = 0;
  const int status = MPI_Testsome(static_cast<int>(recv_requests_.size()), recv_requests_.data(),
                                  &count, completed_indexes_.data(), statuses_.data());
  if (status != MPI_SUCCESS && status != MPI_ERR_IN_STATUS) {
    fail(status, "MPI_Testsome on the receives");
  }
  if (count == MPI_UNDEFINED) return;
  for (int i = 0; i < count; ++i) {
    const auto r = static_cast<std::size_t>(completed_indexes_[static_cast<std::size_t>(i)]);
    const MPI_Status& s = statuses_[static_cast<std::size_t>(i)];
    if (status == MPI_ERR_IN_STATUS) {
      check(s.MPI_ERROR, [&] { return "the " + names_->recv(r); });
    }
    int received = 0;
    MPI_Get_count(&s, MPI_BYTE, &received);
    if (received != messages_->recvs[r].bytes) {
      throw ExchangeError(ErrorKind::peer, "the " + names_->recv(r) + " brought " + std::to_string(received) +
                          " bytes: the peer disagrees on the message size");
    }
    recv_active_[r] = false;
    completed.push_back(r);
  }
  receives_pending_ -= static_cast<std::size_t>(count);
}

bool MessageRequests::test_sends() {
  const bool partitioned_done = !partitioned_ || partitioned_->test_complete();
  const bool sends_done = test_point_to_point_sends();
  return partitioned_done && sends_done;
}

bool MessageRequests::test_point_to_point_sends() {
  if (sends_pending_ == 0) return true;
  int count = 0;
  const int status = MPI_Testsome(static_cast<int>(send_requests_.size()), send_requests_.data(),
                                  &count, completed_indexes_.data(), statuses_.data());
  if (status != MPI_SUCCESS && status != MPI_ERR_IN_STATUS) {
    fail(status, "MPI_Testsome on the sends");
  }
  if (count != MPI_UNDEFINED) {
    for (int i = 0; i < count; ++i) {
      const auto m = static_cast<std::size_t>(completed_indexes_[static_cast<std::size_t>(i)]);
      send_active_[m] = false;
      if (status == MPI_ERR_IN_STATUS) {
        check(statuses_[static_cast<std::size_t>(i)].MPI_ERROR,
              [&] { return "the " + names_->send(m); });
      }
    }
    sends_pending_ -= static_cast<std::size_t>(count);
  }
  return sends_pending_ == 0;
}

std::string MessageRequests::pending() const {
  std::string text;
  if (partitioned_) text += partitioned_->pending();
  for (std::size_t m = 0; m < send_requests_.size(); ++m) {
    // Their own transports name the other messages; the partitioned requests their own.
    if (!over_mpi_send(m) || partitioned_send(m)) continue;
    if (!send_posted_[m]) {
      text += "\n  " + names_->send(m) + ": not posted (not packed yet)";
    } else if (send_active_[m]) {
      text += "\n  " + names_->send(m) + ": posted, not complete";
    }
  }
  for (std::size_t r = 0; r < recv_requests_.size(); ++r) {
    if (recv_active_[r]) {
      text += "\n  " + names_->recv(r) + ": not received";
    } else if (std::find(unposted_.begin(), unposted_.end(), r) != unposted_.end()) {
      text += "\n  " + names_->recv(r) + ": not arrived (its receive is posted on arrival)";
    }
  }
  return text;
}

void MessageRequests::cancel() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (std::size_t r = 0; r < recv_requests_.size(); ++r) {
    MPI_Request& request = recv_requests_[r];
    if (request == MPI_REQUEST_NULL) continue;
    if (recv_active_[r]) MPI_Cancel(&request);
    MPI_Request_free(&request);
    recv_active_[r] = false;
  }
  // A send cannot be cancelled reliably; freeing lets MPI finish or drop it.
  for (std::size_t m = 0; m < send_requests_.size(); ++m) {
    if (send_requests_[m] != MPI_REQUEST_NULL) MPI_Request_free(&send_requests_[m]);
    send_active_[m] = false;
  }
  if (partitioned_) partitioned_->cancel();
  unposted_.clear();
  receives_pending_ = 0;
  sends_pending_ = 0;
}

}  // namespace haloflag::halo::detail
