#include "transports/self/self_transport.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "transports/piece_grid_size.hpp"
#include "transports/route_table_memory.hpp"

namespace haloflag::halo::detail {
namespace {

// Every array and buffer starts on a boundary that suits any element type and keeps the
// buffers' rows apart.
constexpr std::size_t kBufferAlignment = 256;

}  // namespace

bool self_transport_carries_self(const ExchangeOptions& options) {
  return options.transport != Transport::mpi;
}

SelfTransport::SelfTransport(int rank, const RankMessages& messages,
                             const ExchangeOptions& options, ExchangeResources& resources,
                             TimelineRecorder& timeline, const MessageNames& names)
    : resources_(resources),
      timeline_(timeline),
      names_(names),
      rank_(rank),
      on_gpu_(options.backend != notify::Backend::host),
      grid_(resources, timeline) {
  pair_messages(rank, messages);
  if (any()) upload(options);
}

// Send m to this rank fills the first unpaired receive from this rank with its tag, as MPI would
// match them; the pair must agree on bytes and elements.
void SelfTransport::pair_messages(int rank, const RankMessages& messages) {
  const MessageLayouts& layouts = resources_.layouts;
  recv_of_send_.assign(messages.sends.size(), kernels::kNotSelf);
  send_of_recv_.assign(messages.recvs.size(), kernels::kNotSelf);
  std::vector<std::size_t> sends;
  std::vector<std::size_t> recvs;
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    const Message& send = messages.sends[m];
    if (send.peer != rank) continue;
    std::size_t r = 0;
    while (r < messages.recvs.size() &&
           (messages.recvs[r].peer != rank || messages.recvs[r].tag != send.tag ||
            send_of_recv_[r] != kernels::kNotSelf)) {
      ++r;
    }
    if (r == messages.recvs.size()) {
      throw ConfigError("self transport: " + names_.send(m) + " has no receive from rank " +
                        std::to_string(rank) + " with tag " + std::to_string(send.tag));
    }
    if (messages.recvs[r].bytes != send.bytes ||
        layouts.recvs[r].element_count() != layouts.sends[m].element_count()) {
      throw ConfigError("self transport: " + names_.send(m) + " has " +
                        std::to_string(send.bytes) + " bytes, " + names_.recv(r) + " " +
                        std::to_string(messages.recvs[r].bytes));
    }
    recv_of_send_[m] = static_cast<std::uint32_t>(r);
    send_of_recv_[r] = static_cast<std::uint32_t>(m);
    sends.push_back(m);
    recvs.push_back(r);
  }
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    if (messages.recvs[r].peer == rank && send_of_recv_[r] == kernels::kNotSelf) {
      throw ConfigError("self transport: " + names_.recv(r) + " has no send to rank " +
                        std::to_string(rank) + " with tag " +
                        std::to_string(messages.recvs[r].tag));
    }
  }
  std::sort(recvs.begin(), recvs.end());
  grid_.watch(std::move(sends), std::move(recvs));
}

// The sends' routes and pieces, the receives' routes and the placed words, and for the bulk
// strategies a buffer per self send, in one allocation of device memory; then the table itself
// there too: the kernels' plan points at it.
void SelfTransport::upload(const ExchangeOptions& options) {
  const MessageLayouts& layouts = resources_.layouts;
  const std::int64_t piece_elements = std::max<std::int64_t>(
      1, piece_grid_piece_bytes(layouts, options) / std::max(1, largest_element_bytes(layouts)));
  std::vector<kernels::SelfSendRoute> sends(recv_of_send_.size());
  std::vector<kernels::SelfRecvRoute> recvs(send_of_recv_.size());
  std::vector<kernels::SelfPiece> pieces;
  for (const std::size_t m : grid_.sends()) {
    sends[m].recv = recv_of_send_[m];
    recvs[recv_of_send_[m]].send = static_cast<std::uint32_t>(m);
    const std::int64_t elements = layouts.sends[m].element_count();
    for (std::int64_t first = 0; first < elements; first += piece_elements) {
      pieces.push_back({static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(first),
                        static_cast<std::uint32_t>(std::min(piece_elements, elements - first))});
      ++sends[m].pieces;
    }
  }
  RouteTableLayout layout(kBufferAlignment);
  // Only the bulk strategies' kernels pack whole messages into a buffer.
  const bool bulk = !uses_flags(options.strategy);
  std::vector<std::size_t> buffer_at(sends.size(), 0);
  if (bulk) {
    for (const std::size_t m : grid_.sends()) {
      buffer_at[m] = layout.place(static_cast<std::size_t>(layouts.sends[m].bytes()));
    }
  }
  const std::size_t sends_at = layout.place(sizeof(kernels::SelfSendRoute) * sends.size());
  const std::size_t recvs_at = layout.place(sizeof(kernels::SelfRecvRoute) * recvs.size());
  const std::size_t pieces_at = layout.place(sizeof(kernels::SelfPiece) * pieces.size());
  const std::size_t placed_at = layout.place(sizeof(notify::FlagLine) * recvs.size());
  const std::size_t table_at = layout.place(sizeof(kernels::SelfPlan));
  memory_ = kernels::DeviceMemory(options.backend, layout.bytes());  // zero-filled: none placed
  auto* base = static_cast<std::byte*>(memory_.data());
  if (bulk) {
    for (const std::size_t m : grid_.sends()) {
      sends[m].buffer = base + buffer_at[m];
      recvs[recv_of_send_[m]].buffer = sends[m].buffer;
    }
  }
  plan_.sends = upload_at(memory_, sends, sends_at);
  plan_.recvs = upload_at(memory_, recvs, recvs_at);
  plan_.pieces = upload_at(memory_, pieces, pieces_at);
  plan_.piece_count = static_cast<std::uint32_t>(pieces.size());
  plan_.placed = reinterpret_cast<notify::FlagLine*>(base + placed_at);
  plan_.placed_id = resources_.control.register_array("self_placed");
  route_table_ = upload_at(memory_, std::vector<kernels::SelfPlan>{plan_}, table_at);
}

PeerTransport SelfTransport::description() const {
  return {rank_, Transport::self,
          on_gpu_ ? "cells copied into its own ghost cells on its GPU"
                  : "cells copied into its own ghost cells"};
}

bool SelfTransport::progress(std::uint64_t epoch) { return grid_.progress(epoch); }

void SelfTransport::send_packed(std::uint64_t) {
  for (const std::size_t m : grid_.sends()) timeline_.send_posted(m);
}

std::string SelfTransport::pending(std::uint64_t epoch) const {
  // Under a bulk strategy the kernels move them: the strategy names those.
  if (!grid_.waiting()) return {};
  // The GPU alone knows which pieces are in: name every self message.
  std::string text = "\n  pieces_done[0] = " + std::to_string(grid_.done_value()) +
                     ", waiting for " + std::to_string(epoch) + ": not every self message is in";
  for (const std::size_t m : grid_.sends()) {
    text += "\n  " + names_.send(m) + " into " + names_.recv(recv_of_send_[m]) +
            ": self transport, not confirmed";
  }
  return text;
}

}  // namespace haloflag::halo::detail
