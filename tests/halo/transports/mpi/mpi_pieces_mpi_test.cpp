// Messages in pieces over MPI (haloflag/halo/mpi_pieces.hpp) with real MPI ranks on the host
// backend: every flag strategy, each way the pieces can travel in this MPI library (a request
// per piece everywhere; partitioned communication where the library has MPI 4), piece sizes
// that divide the messages and ones that do not, every ghost cell verified after every
// exchange. Peers that disagree on the piece size or transfer fail at set-up on every rank,
// naming the peer and a message; a piece that never arrives ends in a deadline error naming
// the message, the piece, the peer and the tag.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "exchange_failure.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/mpi_pieces.hpp"
#include "mpi_world.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::ExchangeFailure;
using haloflag::test::failure_of;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kExchanges = 12;

// Faces of 24 x 24 cells with 3 variables: 13824 bytes, rows of 576 bytes. Pieces of 4000
// bytes hold 6 rows: 4 pieces, the last a whole one; 5000 bytes hold 8 rows: 3 pieces; 2500
// bytes hold 4 rows, 6 pieces; the edges (576 bytes) stay whole.
Geometry cube() {
  GeometrySpec spec;
  spec.global_size = {48, 48, 48};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  spec.vars = 3;
  return Geometry(spec);
}

ExchangeOptions options_for(Strategy strategy, std::int64_t piece_bytes, PieceTransfer transfer) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = Backend::host;
  options.transport = Transport::mpi;
  options.advanced.mpi_piece_bytes = piece_bytes;
  options.advanced.piece_transfer = transfer;
  options.timeout = std::chrono::seconds(60);
  return options;
}

std::vector<PieceTransfer> transfers() {
  std::vector<PieceTransfer> available = {PieceTransfer::point_to_point};
  if (partitioned_communication_available()) available.push_back(PieceTransfer::partitioned);
  return available;
}

std::string label(Strategy strategy, std::int64_t piece_bytes, PieceTransfer transfer) {
  return std::string(to_string(strategy)) + ", pieces of " + std::to_string(piece_bytes) +
         " B, " + std::string(to_string(transfer));
}

// kExchanges verified exchanges; an error ends the job at once (the peers would wait for their
// deadline otherwise).
void run_verified(const Geometry& geometry, const ExchangeOptions& options,
                  const std::string& name) {
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(options.backend, verifier.field_extent(), verifier.vars());
  HostField host(verifier.field_extent(), verifier.vars());
  int wrong = 0;
  std::string first;
  try {
    Exchange exchange(geometry, fields.view(), options);
    // The peers' paths say that the messages go in pieces, and how.
    bool described = false;
    for (const PeerTransport& peer : exchange.peer_transports()) {
      described = described || contains(peer.path, "pieces of <= " +
                                                        std::to_string(options.advanced.mpi_piece_bytes));
    }
    EXPECT_TRUE(described) << name << ": " << describe(exchange.peer_transports());
    // What moves outnumbers the config's messages: the faces went in pieces.
    EXPECT_GT(exchange.messages().sends.size(), rank_messages(geometry, world_rank()).sends.size())
        << name;
    for (int i = 0; i < kExchanges; ++i) {
      const std::uint64_t epoch = exchange.epoch() + 1;
      verifier.fill(host, epoch);
      fields.upload(host);
      exchange.run();
      fields.download(host);
      const std::string report =
          i + 1 < kExchanges ? verifier.check(host, epoch) : verifier.check_all(host, epoch);
      if (!report.empty() && wrong++ == 0) first = report;
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "[rank %d] %s: %s\n", world_rank(), name.c_str(), error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  EXPECT_EQ(wrong, 0) << name << ", rank " << world_rank() << ": first: " << first;
}

TEST(MpiPieces, EveryFlagStrategyStaysCorrectWithPiecesThatDivideTheMessagesAndOnesThatDoNot) {
  const Geometry geometry = cube();
  for (const Strategy strategy :
       {Strategy::stream_notify, Strategy::stacked_notify, Strategy::resident}) {
    for (const PieceTransfer transfer : transfers()) {
      for (const std::int64_t piece_bytes : {4000, 5000, 2500}) {
        run_verified(geometry, options_for(strategy, piece_bytes, transfer),
                     label(strategy, piece_bytes, transfer));
      }
    }
  }
}

// The progress thread runs the CPU side piece by piece too.
TEST(MpiPieces, AProgressThreadMovesThePieces) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    GTEST_SKIP() << "MPI was not initialised with MPI_THREAD_MULTIPLE "
                    "(HALOFLAG_TEST_MPI_THREAD=multiple: the job halo_mpi_pieces_thread)";
  }
  for (const PieceTransfer transfer : transfers()) {
    ExchangeOptions options = options_for(Strategy::resident, 5000, transfer);
    options.progress = Progress::thread;
    run_verified(cube(), options, label(Strategy::resident, 5000, transfer) + ", thread");
  }
}

// Rank 0 cuts its messages into other pieces than its peers: every rank fails at set-up, before
// any exchange; rank 0 and its peers name the pair and a message.
TEST(MpiPieces, PeersThatDisagreeOnThePieceSizeFailAtSetUpNamingThePeerAndAMessage) {
  const Geometry geometry = cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  ExchangeOptions options =
      options_for(Strategy::resident, world_rank() == 0 ? 2500 : 5000, PieceTransfer::automatic);
  options.timeout = std::chrono::seconds(20);
  const ExchangeFailure failure = failure_of([&] { Exchange exchange(geometry, fields.view(), options); });
  ASSERT_TRUE(failure.thrown) << "rank " << world_rank() << " set up";
  // Ranks that share only edges with rank 0 (too short to cut) agree with it.
  bool cut_with_0 = world_rank() == 0;
  for (const Message& m : rank_messages(geometry, world_rank()).recvs) {
    cut_with_0 |= m.peer == 0 && m.bytes > 2500;
  }
  if (cut_with_0) {
    EXPECT_TRUE(contains(failure.message, "into MPI pieces of at most 2500 bytes")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "into MPI pieces of at most 5000 bytes")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "mpi_piece_bytes")) << failure.message;
    EXPECT_TRUE(contains(failure.message, " tag ")) << failure.message;
    EXPECT_TRUE(contains(failure.message, world_rank() == 0 ? "with peer " : "with peer 0"))
        << failure.message;
  }
  EXPECT_LT(failure.seconds, 15.0) << failure.message;
}

// Rank 0 moves its pieces another way than its peers: partitioned against a request per piece
// where the library has both; where it has no partitioned communication, asking for it fails on
// every rank naming the MPI version.
TEST(MpiPieces, PeersThatDisagreeOnTheTransferFailAtSetUp) {
  const Geometry geometry = cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  const PieceTransfer mine =
      world_rank() == 0 ? PieceTransfer::partitioned : PieceTransfer::point_to_point;
  ExchangeOptions options = options_for(Strategy::stream_notify, 5000, mine);
  options.timeout = std::chrono::seconds(20);
  const ExchangeFailure failure = failure_of([&] { Exchange exchange(geometry, fields.view(), options); });
  ASSERT_TRUE(failure.thrown) << "rank " << world_rank() << " set up";
  if (!partitioned_communication_available()) {
    if (world_rank() == 0) {
      EXPECT_TRUE(contains(failure.message, "needs MPI 4 partitioned communication"))
          << failure.message;
    } else {
      EXPECT_TRUE(contains(failure.message, "rank 0 failed to set up the exchange"))
          << failure.message;
    }
    return;
  }
  bool cut_with_0 = world_rank() == 0;
  for (const Message& m : rank_messages(geometry, world_rank()).recvs) {
    cut_with_0 |= m.peer == 0 && m.bytes > 5000;
  }
  if (cut_with_0) {
    EXPECT_TRUE(contains(failure.message, "moves its MPI pieces with")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "piece_transfer")) << failure.message;
  }
}

// The last rank never starts an exchange: its peers' deadline errors name every piece they
// still wait for by the config's tag, its place among the pieces and its peer.
TEST(MpiPieces, APieceThatNeverArrivesEndsInADeadlineErrorNamingThePiece) {
  const int silent = world_size() - 1;
  const Geometry geometry = cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  for (const PieceTransfer transfer : transfers()) {
    ExchangeOptions options = options_for(Strategy::resident, 5000, transfer);
    options.timeout = std::chrono::seconds(2);
    // A communicator per transfer, so that the sends left over from the first case never meet
    // the second's receives (MPICH reuses a freed communicator's context).
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    options.comm = comm;
    {
      Exchange exchange(geometry, fields.view(), options);
      if (world_rank() != silent) {
        bool receives_from_silent = false;
        for (const Message& m : exchange.messages().recvs) receives_from_silent |= m.peer == silent;
        if (receives_from_silent) {
          const ExchangeFailure failure = failure_of([&] { exchange.run(); });
          ASSERT_TRUE(failure.thrown);
          EXPECT_TRUE(contains(failure.message, "timed out after")) << failure.message;
          // Every piece of every message from the silent rank, by the config's tag.
          bool cut_from_silent = false;
          for (const Message& m : rank_messages(geometry, world_rank()).recvs) {
            if (m.peer != silent) continue;
            const MessageCut cut = cut_message(m, MessageData{3, 8, {}}, options.advanced.mpi_piece_bytes);
            cut_from_silent |= cut.pieces > 1;
            const std::string name = "receive from peer " + std::to_string(silent) + " tag " +
                                     std::to_string(m.tag);
            EXPECT_TRUE(contains(failure.message,
                                 cut.pieces == 1 ? name + " (" : name + " piece " +
                                     std::to_string(cut.pieces) + " of " +
                                     std::to_string(cut.pieces) + " ("))
                << failure.message;
          }
          // What is pending on a cut message depends on how its pieces travel.
          if (cut_from_silent) {
            EXPECT_TRUE(contains(failure.message, transfer == PieceTransfer::partitioned
                                                      ? "not arrived (partition"
                                                      : "not received"))
                << failure.message;
          }
          EXPECT_LT(failure.seconds, 8.0) << failure.message;
        }
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
    // The communicator keeps the leftovers; it is never freed (as a failed Exchange keeps its own).
  }
}

}  // namespace
