#include "transports/mpi/partitioned_requests.hpp"

#include <algorithm>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/mpi_pieces.hpp"
#include "mpi_error_text.hpp"

namespace haloflag::halo::detail {

#if MPI_VERSION >= 4

namespace {

// MPICH before 4.1 keeps no per-partition arrival: its MPI_Parrived is true only once the whole
// message is in, and fails on a request whose data has all arrived. There the receiver tests
// each partitioned request whole; the sender's pieces still go as they are packed.
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
constexpr bool kArrivalPerPartition = false;
#else
constexpr bool kArrivalPerPartition = true;
#endif

// Names the failed call only on failure: the exchange's MPI calls build no text on success.
template <class Describe>
void check(int status, Describe describe) {
  if (status != MPI_SUCCESS) {
    throw ExchangeError(ErrorKind::mpi, describe() + " failed: " + mpi_error_text(status));
  }
}

// Calls `make_parent` at piece 0 of each cut message of one direction, and maps every piece to
// its message's parent (the parents are made in order).
template <class MakeParent>
void map_pieces_to_parents(const std::vector<WireOrigin>& origins, std::vector<int>& parent_of,
                           MakeParent make_parent) {
  int parents = 0;
  parent_of.assign(origins.size(), -1);
  for (std::size_t m = 0; m < origins.size(); ++m) {
    if (origins[m].pieces == 1) continue;
    if (origins[m].piece == 0) {
      make_parent(m);
      ++parents;
    }
    parent_of[m] = parents - 1;
  }
}

}  // namespace

PartitionedRequests::PartitionedRequests(MPI_Comm comm, const PiecedMessages& pieced,
                                         const MessageLayouts& layouts, std::byte* send_buffer,
                                         std::byte* recv_buffer, const MessageNames& names)
    : pieced_(&pieced), names_(&names), send_ready_(pieced.sends.size(), false) {
  // A message's partitions are its slabs: piece k is partitions [first_unit, first_unit + units).
  const auto slabs = [](const std::vector<WireOrigin>& origins, std::size_t first) {
    std::int64_t units = 0;
    for (std::size_t k = first; k < first + static_cast<std::size_t>(origins[first].pieces); ++k) {
      units += origins[k].units;
    }
    return static_cast<int>(units);
  };
  const auto slab_bytes = [](const Message& piece, const WireOrigin& origin) {
    return static_cast<MPI_Count>(piece.bytes / origin.units);
  };
  // One direction's parents: a partitioned request per cut message, started at its piece 0.
  const auto make_parents = [&](const std::vector<WireOrigin>& origins, const auto& wire,
                                const auto& placed, std::byte* buffer, bool send,
                                std::vector<int>& parent_of, std::vector<Parent>& parents) {
    map_pieces_to_parents(origins, parent_of, [&](std::size_t m) {
      const Message& piece = wire[m];
      Parent parent;
      parent.first_piece = m;
      std::byte* start = buffer + placed[m].buffer_offset;
      const int partitions = slabs(origins, m);
      const MPI_Count bytes = slab_bytes(piece, origins[m]);
      const int status =
          send ? MPI_Psend_init(start, partitions, bytes, MPI_BYTE, piece.peer, piece.tag, comm,
                                MPI_INFO_NULL, &parent.request)
               : MPI_Precv_init(start, partitions, bytes, MPI_BYTE, piece.peer, piece.tag, comm,
                                MPI_INFO_NULL, &parent.request);
      check(status, [&] {
        return send ? "MPI_Psend_init for the " + names.send(m)
                    : "MPI_Precv_init for the " + names.recv(m);
      });
      parents.push_back(parent);
    });
  };
  try {
    make_parents(pieced.sends, pieced.wire.sends, layouts.sends, send_buffer, true, send_parent_,
                 send_parents_);
    make_parents(pieced.recvs, pieced.wire.recvs, layouts.recvs, recv_buffer, false, recv_parent_,
                 recv_parents_);
  } catch (...) {
    cancel();
    throw;
  }
}

void PartitionedRequests::start() {
  send_ready_.assign(send_ready_.size(), false);
  awaited_.clear();
  for (Parent& parent : recv_parents_) {
    check(MPI_Start(&parent.request),
          [&] { return "MPI_Start for the " + names_->recv(parent.first_piece); });
    parent.active = true;
  }
  for (std::size_t r = 0; r < recv_parent_.size(); ++r) {
    if (recv_parent_[r] >= 0) awaited_.push_back({r, pieced_->recvs[r].first_unit});
  }
  for (Parent& parent : send_parents_) {
    check(MPI_Start(&parent.request),
          [&] { return "MPI_Start for the " + names_->send(parent.first_piece); });
    parent.active = true;
  }
  parents_active_ = send_parents_.size() + recv_parents_.size();
}

void PartitionedRequests::ready(std::size_t m) {
  const WireOrigin& origin = pieced_->sends[m];
  Parent& parent = send_parents_[static_cast<std::size_t>(send_parent_[m])];
  check(MPI_Pready_range(static_cast<int>(origin.first_unit),
                         static_cast<int>(origin.first_unit + origin.units - 1), parent.request),
        [&] { return std::string("MPI_Pready_range for the ") + names_->send(m); });
  send_ready_[m] = true;
}

void PartitionedRequests::test_arrivals(std::vector<std::size_t>& arrived) {
  if (awaited_.empty()) return;
  if (!kArrivalPerPartition) {
    // The whole message lands at once: every awaited piece of a completed request has arrived.
    for (Parent& parent : recv_parents_) {
      if (!parent.active) continue;
      int done = 0;
      check(MPI_Test(&parent.request, &done, MPI_STATUS_IGNORE),
            [&] { return std::string("MPI_Test for the ") + names_->recv(parent.first_piece); });
      if (!done) continue;
      parent.active = false;
      --parents_active_;
    }
    std::erase_if(awaited_, [&](const Awaited& awaited) {
      if (recv_parents_[static_cast<std::size_t>(recv_parent_[awaited.piece])].active) return false;
      arrived.push_back(awaited.piece);
      return true;
    });
    return;
  }
  std::erase_if(awaited_, [&](Awaited& awaited) {
    const WireOrigin& origin = pieced_->recvs[awaited.piece];
    const Parent& parent = recv_parents_[static_cast<std::size_t>(recv_parent_[awaited.piece])];
    const std::int64_t end = origin.first_unit + origin.units;
    while (awaited.next_unit < end) {
      int flag = 0;
      check(MPI_Parrived(parent.request, static_cast<int>(awaited.next_unit), &flag),
            [&] { return std::string("MPI_Parrived for the ") + names_->recv(awaited.piece); });
      if (!flag) return false;
      ++awaited.next_unit;
    }
    arrived.push_back(awaited.piece);
    return true;
  });
}

bool PartitionedRequests::test_complete() {
  if (parents_active_ == 0) return true;
  const auto test = [&](std::vector<Parent>& parents, bool sends) {
    for (Parent& parent : parents) {
      if (!parent.active) continue;
      int done = 0;
      check(MPI_Test(&parent.request, &done, MPI_STATUS_IGNORE), [&] {
        return "MPI_Test for the " + (sends ? names_->send(parent.first_piece)
                                            : names_->recv(parent.first_piece));
      });
      if (!done) continue;
      parent.active = false;
      --parents_active_;
    }
  };
  test(send_parents_, true);
  test(recv_parents_, false);
  return parents_active_ == 0;
}

#else  // MPI before 4.0: resolve_piece_transfer() refuses partitioned before this is made.

PartitionedRequests::PartitionedRequests(MPI_Comm, const PiecedMessages& pieced,
                                         const MessageLayouts&, std::byte*, std::byte*,
                                         const MessageNames& names)
    : pieced_(&pieced), names_(&names) {
  throw ConfigError(
      "partitioned communication needs MPI 4, and this build's MPI library implements MPI " +
      std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION));
}

void PartitionedRequests::start() {}
void PartitionedRequests::ready(std::size_t) {}
void PartitionedRequests::test_arrivals(std::vector<std::size_t>&) {}
bool PartitionedRequests::test_complete() { return true; }

#endif

PartitionedRequests::~PartitionedRequests() { cancel(); }

std::string PartitionedRequests::pending() const {
  std::string text;
  for (std::size_t m = 0; m < send_parent_.size(); ++m) {
    if (send_parent_[m] < 0) continue;
    const Parent& parent = send_parents_[static_cast<std::size_t>(send_parent_[m])];
    if (!send_ready_[m]) {
      text += "\n  " + names_->send(m) + ": not ready (not packed yet; partitioned)";
    } else if (parent.active && m == parent.first_piece) {
      text += "\n  " + names_->send(m) + ": every piece's request not complete (partitioned)";
    }
  }
  for (const Awaited& awaited : awaited_) {
    text += "\n  " + names_->recv(awaited.piece) + ": not arrived (partition " +
            std::to_string(awaited.next_unit) + " of the message not yet; partitioned)";
  }
  return text;
}

void PartitionedRequests::cancel() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto* parents : {&recv_parents_, &send_parents_}) {
    for (Parent& parent : *parents) {
      if (parent.request == MPI_REQUEST_NULL) continue;
      MPI_Request_free(&parent.request);
      parent.active = false;
    }
  }
  awaited_.clear();
  parents_active_ = 0;
}

}  // namespace haloflag::halo::detail
