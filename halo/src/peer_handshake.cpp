#include "peer_handshake.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "mpi_error_text.hpp"

namespace haloflag::halo::detail {
namespace {

using Clock = std::chrono::steady_clock;

// The lists travel with this tag. Halo messages cannot meet them (see the header), so any tag
// would do; this is the largest one every MPI library must allow.
constexpr int kHandshakeTag = 32767;

// One message as one side lists it. `index` is its place in this rank's sends or recvs (for
// naming it); the peer's entries leave it 0.
struct Listed {
  int tag = 0;
  std::int64_t bytes = 0;
  std::size_t index = 0;
};

// The messages between this rank and one other rank, as one of the two lists them, and how that
// side moves them.
struct PairLists {
  std::int64_t over_mpi = 0;     // 1: over MPI
  std::int64_t piece_bytes = 0;  // 0: whole
  std::int64_t transfer = 0;     // PieceTransfer of its pieces
  std::int64_t cut = 0;          // its messages with the other rank that go in pieces
  std::vector<Listed> sends;  // to the other rank
  std::vector<Listed> recvs;  // from the other rank
};

// The words before the lists (over_mpi, piece_bytes, transfer, cut).
constexpr std::size_t kHeaderWords = 4;

std::string seconds_text(std::chrono::nanoseconds duration) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", std::chrono::duration<double>(duration).count());
  return text;
}

void check_mpi(int status, const std::string& what) {
  if (status != MPI_SUCCESS) {
    throw ExchangeError(ErrorKind::mpi, "peer handshake: " + what + " failed: " + mpi_error_text(status));
  }
}

std::string plural(std::size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// Sorts this rank's messages by the rank at the other end. Messages it cannot send (peer out of
// range) and a second message with the same peer and tag (MPI would match same-tag messages in
// posting order, which the flag strategies do not fix) become problems.
std::vector<PairLists> lists_by_peer(const RankMessages& messages,
                                     const std::vector<PeerCut>& cuts, PieceTransfer transfer,
                                     const MessageNames& names, int size,
                                     std::vector<std::string>& problems) {
  std::vector<PairLists> by_peer(static_cast<std::size_t>(size));
  for (std::size_t q = 0; q < by_peer.size() && q < cuts.size(); ++q) {
    by_peer[q].over_mpi = cuts[q].over_mpi ? 1 : 0;
    by_peer[q].piece_bytes = cuts[q].piece_bytes;
    by_peer[q].transfer = static_cast<std::int64_t>(transfer);
    by_peer[q].cut = cuts[q].cut;
  }
  const auto sort_in = [&](const std::vector<Message>& list, bool sends) {
    const auto name = [&](std::size_t index) {
      return sends ? names.send(index) : names.recv(index);
    };
    std::map<std::pair<int, int>, std::size_t> first_of;  // (peer, tag) -> index
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Message& m = list[i];
      if (m.peer < 0 || m.peer >= size) {
        problems.push_back(name(i) + ": peer " + std::to_string(m.peer) + " is out of range [0, " +
                           std::to_string(size) + ") of the communicator");
        continue;
      }
      const auto [first, inserted] = first_of.emplace(std::make_pair(m.peer, m.tag), i);
      if (!inserted) {
        problems.push_back(name(i) + ": the same peer and tag as the " + name(first->second) +
                           "; MPI would match the two in posting order");
      }
      PairLists& pair = by_peer[static_cast<std::size_t>(m.peer)];
      (sends ? pair.sends : pair.recvs).push_back(Listed{m.tag, m.bytes, i});
    }
  };
  sort_in(messages.sends, true);
  sort_in(messages.recvs, false);
  return by_peer;
}

// What travels to one peer: the header, its sends, then its receives, each as (tag, bytes).
std::vector<std::int64_t> encode(const PairLists& lists) {
  std::vector<std::int64_t> words = {lists.over_mpi, lists.piece_bytes, lists.transfer, lists.cut};
  words.reserve(kHeaderWords + 2 * (lists.sends.size() + lists.recvs.size()));
  for (const auto* list : {&lists.sends, &lists.recvs}) {
    for (const Listed& m : *list) {
      words.push_back(m.tag);
      words.push_back(m.bytes);
    }
  }
  return words;
}

PairLists decode(const std::vector<std::int64_t>& words, std::size_t send_count) {
  PairLists lists;
  if (words.size() < kHeaderWords) return lists;
  lists.over_mpi = words[0];
  lists.piece_bytes = words[1];
  lists.transfer = words[2];
  lists.cut = words[3];
  for (std::size_t k = kHeaderWords; k + 1 < words.size(); k += 2) {
    const Listed m{static_cast<int>(words[k]), words[k + 1], 0};
    ((k - kHeaderWords) / 2 < send_count ? lists.sends : lists.recvs).push_back(m);
  }
  return lists;
}

std::string pieces_text(std::int64_t piece_bytes) {
  return piece_bytes > 0 ? "into MPI pieces of at most " + std::to_string(piece_bytes) + " bytes"
                         : "not at all (whole messages)";
}

std::string transfer_text(std::int64_t transfer) {
  return std::string(to_string(static_cast<PieceTransfer>(transfer)));
}

// A message between this rank and its peer, to name in a problem of the whole pair.
std::string first_message(const PairLists& mine, const MessageNames& names) {
  if (!mine.sends.empty()) return "the " + names.send(mine.sends.front().index);
  if (!mine.recvs.empty()) return "the " + names.recv(mine.recvs.front().index);
  return "no message of this rank's";
}

// Pairs the k-th message with a tag on one side with the k-th with that tag on the other, and
// reports each pair whose sizes differ and each message without a partner.
template <class SizesDiffer, class OnlyMine, class OnlyTheirs>
void match_by_tag(const std::vector<Listed>& mine, const std::vector<Listed>& theirs,
                  SizesDiffer sizes_differ, OnlyMine only_mine, OnlyTheirs only_theirs) {
  std::map<int, std::pair<std::vector<const Listed*>, std::vector<const Listed*>>> by_tag;
  for (const Listed& m : mine) by_tag[m.tag].first.push_back(&m);
  for (const Listed& m : theirs) by_tag[m.tag].second.push_back(&m);
  for (const auto& [tag, sides] : by_tag) {
    const auto& [a, b] = sides;
    for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
      if (k < a.size() && k < b.size()) {
        if (a[k]->bytes != b[k]->bytes) sizes_differ(*a[k], *b[k]);
      } else if (k < a.size()) {
        only_mine(*a[k]);
      } else {
        only_theirs(*b[k]);
      }
    }
  }
}

// Both directions between this rank and `peer`, phrased from this rank's side; the peer finds
// the same disagreements phrased from its side.
void compare_lists(int rank, int peer, const PairLists& mine, const PairLists& theirs,
                   const MessageNames& names, std::vector<std::string>& problems);

// The lists, then, where both sides reach each other over MPI (a pair that chose different
// transports is the node transport's to report) and either cuts messages into pieces, how.
void compare_with_peer(int rank, int peer, const PairLists& mine, const PairLists& theirs,
                       const MessageNames& names, std::vector<std::string>& problems) {
  compare_lists(rank, peer, mine, theirs, names, problems);
  if (mine.over_mpi == 0 || theirs.over_mpi == 0 || (mine.cut == 0 && theirs.cut == 0)) return;
  const std::string me = "rank " + std::to_string(rank);
  const std::string other = "peer " + std::to_string(peer);
  if (mine.piece_bytes != theirs.piece_bytes) {
    problems.push_back(me + " cuts its messages with " + other + " " +
                       pieces_text(mine.piece_bytes) + ", " + other + " " +
                       pieces_text(theirs.piece_bytes) +
                       " (AdvancedOptions::mpi_piece_bytes must agree); " +
                       first_message(mine, names) + " is one of them");
  } else if (mine.transfer != theirs.transfer) {
    problems.push_back(me + " moves its MPI pieces with " + other + " " +
                       transfer_text(mine.transfer) + ", " + other + " " +
                       transfer_text(theirs.transfer) +
                       " (AdvancedOptions::piece_transfer must agree); " +
                       first_message(mine, names) + " is one of them");
  }
}

void compare_lists(int rank, int peer, const PairLists& mine, const PairLists& theirs,
                   const MessageNames& names, std::vector<std::string>& problems) {
  const std::string me = "rank " + std::to_string(rank);
  const std::string other = "peer " + std::to_string(peer);

  if (mine.sends.size() != theirs.recvs.size()) {
    problems.push_back(me + " sends " + plural(mine.sends.size(), "message") + " to " + other +
                       ", which expects " + std::to_string(theirs.recvs.size()) + " from it");
  }
  match_by_tag(
      mine.sends, theirs.recvs,
      [&](const Listed& sent, const Listed& expected) {
        problems.push_back(names.send(sent.index) + ": " + other + " expects to receive " +
                           std::to_string(expected.bytes) + " bytes");
      },
      [&](const Listed& sent) {
        problems.push_back(names.send(sent.index) + ": " + other +
                           " expects no message with tag " + std::to_string(sent.tag) +
                           " from " + me);
      },
      [&](const Listed& expected) {
        problems.push_back(other + " expects to receive tag " + std::to_string(expected.tag) +
                           " (" + std::to_string(expected.bytes) + " bytes) from " + me +
                           ", which sends no message with that tag to it");
      });

  if (mine.recvs.size() != theirs.sends.size()) {
    problems.push_back(me + " expects " + plural(mine.recvs.size(), "message") + " from " +
                       other + ", which sends " + std::to_string(theirs.sends.size()));
  }
  match_by_tag(
      mine.recvs, theirs.sends,
      [&](const Listed& expected, const Listed& sent) {
        problems.push_back(names.recv(expected.index) + ": " + other + " sends " +
                           std::to_string(sent.bytes) + " bytes");
      },
      [&](const Listed& expected) {
        problems.push_back(names.recv(expected.index) + ": " + other +
                           " sends no message with tag " + std::to_string(expected.tag) +
                           " to " + me);
      },
      [&](const Listed& sent) {
        problems.push_back(other + " sends tag " + std::to_string(sent.tag) + " (" +
                           std::to_string(sent.bytes) + " bytes) to " + me +
                           ", which expects no message with that tag from it");
      });
}

// Tests `requests` without blocking (other ranks may share this core) until all completed or
// `deadline` passed; true when all completed. Completed requests become MPI_REQUEST_NULL.
bool test_until(std::vector<MPI_Request>& requests, Clock::time_point deadline,
                const std::string& what) {
  std::vector<int> done(requests.size());
  std::vector<MPI_Status> statuses(requests.size());
  for (;;) {
    int count = 0;
    const int status = MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &count,
                                    done.data(), statuses.data());
    if (status == MPI_ERR_IN_STATUS) {
      for (int i = 0; i < count; ++i) {
        check_mpi(statuses[static_cast<std::size_t>(i)].MPI_ERROR, what);
      }
    } else {
      check_mpi(status, what);
    }
    if (count == MPI_UNDEFINED) return true;  // every request is null: all completed
    if (Clock::now() > deadline) return false;
    std::this_thread::yield();
  }
}

// Exchanges the lists with every peer; returns the peer's lists by rank.
std::vector<PairLists> exchange_lists(MPI_Comm comm, const std::vector<PairLists>& mine,
                                      std::chrono::nanoseconds timeout) {
  const int size = static_cast<int>(mine.size());
  const Clock::time_point deadline = Clock::now() + timeout;

  // How many entries each rank lists for each other rank, so that both sides of a pair know
  // they have something to compare even where only one side's config names the other.
  std::vector<int> my_counts(2 * mine.size());
  for (std::size_t p = 0; p < mine.size(); ++p) {
    my_counts[2 * p] = static_cast<int>(mine[p].sends.size());
    my_counts[2 * p + 1] = static_cast<int>(mine[p].recvs.size());
  }
  std::vector<int> their_counts(my_counts.size());
  std::vector<MPI_Request> count_request(1, MPI_REQUEST_NULL);
  check_mpi(MPI_Ialltoall(my_counts.data(), 2, MPI_INT, their_counts.data(), 2, MPI_INT, comm,
                          count_request.data()),
            "MPI_Ialltoall of the message counts");
  if (!test_until(count_request, deadline, "MPI_Ialltoall of the message counts")) {
    // A pending collective may be neither cancelled nor freed; the job is failing anyway.
    throw ExchangeError(ErrorKind::peer, "peer handshake: not every rank of the communicator took part within " +
                        seconds_text(timeout) + " (the exchange of message counts is incomplete)");
  }

  std::vector<std::vector<std::int64_t>> outgoing(mine.size());
  std::vector<std::vector<std::int64_t>> incoming(mine.size());
  std::vector<MPI_Request> requests;
  std::vector<std::pair<int, bool>> request_peer;  // (peer, is receive) per request
  for (int p = 0; p < size; ++p) {
    const auto q = static_cast<std::size_t>(p);
    const int their_sends = their_counts[2 * q];
    const int their_recvs = their_counts[2 * q + 1];
    if (my_counts[2 * q] + my_counts[2 * q + 1] + their_sends + their_recvs == 0) continue;
    incoming[q].resize(kHeaderWords + 2 * static_cast<std::size_t>(their_sends + their_recvs));
    outgoing[q] = encode(mine[q]);
    requests.emplace_back();
    check_mpi(MPI_Irecv(incoming[q].data(), static_cast<int>(incoming[q].size()), MPI_INT64_T, p,
                        kHandshakeTag, comm, &requests.back()),
              "MPI_Irecv of the lists of peer " + std::to_string(p));
    request_peer.emplace_back(p, true);
    requests.emplace_back();
    check_mpi(MPI_Isend(outgoing[q].data(), static_cast<int>(outgoing[q].size()), MPI_INT64_T, p,
                        kHandshakeTag, comm, &requests.back()),
              "MPI_Isend of the lists to peer " + std::to_string(p));
    request_peer.emplace_back(p, false);
  }
  if (!test_until(requests, deadline, "the exchange of lists")) {
    std::string late;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] == MPI_REQUEST_NULL) continue;
      const auto [peer, is_receive] = request_peer[i];
      late += "\n  peer " + std::to_string(peer) +
              (is_receive ? ": its lists never arrived" : ": it did not take this rank's lists");
      if (is_receive) MPI_Cancel(&requests[i]);
      MPI_Request_free(&requests[i]);
    }
    throw ExchangeError(ErrorKind::peer, "peer handshake: no answer within " + seconds_text(timeout) +
                        " (a peer that is gone or stuck before its set-up):" + late);
  }

  std::vector<PairLists> theirs(mine.size());
  for (std::size_t p = 0; p < mine.size(); ++p) {
    theirs[p] = decode(incoming[p], static_cast<std::size_t>(their_counts[2 * p]));
  }
  return theirs;
}

}  // namespace

void check_peers_agree(MPI_Comm comm, const RankMessages& messages, const MessageNames& names,
                       std::chrono::nanoseconds timeout, const std::vector<PeerCut>& cuts,
                       PieceTransfer transfer) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::string> problems;
  const std::vector<PairLists> mine =
      lists_by_peer(messages, cuts, transfer, names, size, problems);
  const std::vector<PairLists> theirs = exchange_lists(comm, mine, timeout);
  for (std::size_t p = 0; p < mine.size(); ++p) {
    compare_with_peer(rank, static_cast<int>(p), mine[p], theirs[p], names, problems);
  }
  if (problems.empty()) return;
  std::string text = "the peer handshake found " + plural(problems.size(), "problem") +
                     " in the messages between this rank and its peers (no exchange was started):";
  for (const std::string& problem : problems) text += "\n  " + problem;
  throw ConfigError(text);
}

}  // namespace haloflag::halo::detail
