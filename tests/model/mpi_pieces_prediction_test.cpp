// The per-strategy prediction with messages in pieces over MPI (docs/model.md, "Pieces over
// MPI") on the two-rank reductions of cubes 200 and 800 with the H100 file: the flag strategies'
// pack and unpack shrink to the first and the last piece, looked up here in the table by hand;
// everything else, and every other strategy and transport, is charged as for whole messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/model/strategy_prediction.hpp"

#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name comb_configs"
#endif
#ifndef HALOFLAG_MODEL_PARAMS_DIR
#error "HALOFLAG_MODEL_PARAMS_DIR must name model/params"
#endif

namespace {

using namespace haloflag::model;
namespace halo = haloflag::halo;
namespace fs = std::filesystem;
using halo::Strategy;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kH100 =
    fs::path(HALOFLAG_MODEL_PARAMS_DIR) / "nvidia-h100-80gb-hbm3__open-mpi-v4.1.6.json";

constexpr Strategy kFlagStrategies[] = {Strategy::stream_notify, Strategy::stacked_notify,
                                        Strategy::resident};
constexpr Strategy kWholeStrategies[] = {Strategy::comb_fused, Strategy::comb_graph,
                                         Strategy::stream_base};

// A config, a piece size, and its longest pieces worked out by hand. Every long message is a
// face; its slabs are one row of the face, `side` cells of 3 vars of 8 B.
struct PieceCase {
  const char* config;
  std::int64_t piece_bytes;
  std::int64_t first_piece_bytes;  // the faces' first piece (the edges travel whole, shorter)
  std::int64_t last_piece_bytes;   // the faces' last piece
};

// Cube 200: faces of 50 x 50 cells, slabs of 1200 B; 13 slabs fit 16384 B, so 50 slabs make
// pieces of 13, 13, 13 and 11 (13200 B).
// Cube 800: faces of 200 x 200 cells, slabs of 4800 B; 13 slabs fit 65536 B: 15 pieces of 13
// and a last of 5 (24000 B). At 16384 B, 3 slabs a piece would make 67 pieces, more than a
// message may have (64): 4 slabs a piece instead (19200 B), 50 pieces, the last one full.
const PieceCase kCases[] = {
    {"comb_200_np2_reduced.cfg", 16384, 13 * 1200, 11 * 1200},
    {"comb_800_np2_reduced.cfg", 65536, 13 * 4800, 5 * 4800},
    {"comb_800_np2_reduced.cfg", 16384, 4 * 4800, 4 * 4800},
};

struct Fixture {
  MachineParams params = read_params_file(kH100);
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

StrategyPrediction predict(const halo::ExchangeConfig& config, Strategy strategy,
                           std::int64_t piece_bytes, int ranks_per_gpu = 1,
                           TransportChoice transport = TransportChoice::mpi) {
  const MachineParams& params = fixture().params;
  return predict_strategy(config, params, *params.mapping, strategy, transport, ranks_per_gpu,
                          piece_bytes);
}

double sum(const std::vector<PhaseTime>& phases) {
  double seconds = 0.0;
  for (const PhaseTime& phase : phases) seconds += phase.seconds;
  return seconds;
}

// The table's slowest shape at `bytes`, interpolated by hand between the measured sizes around
// it (the sizes here lie inside the table).
double slowest_seconds(std::int64_t bytes, bool pack) {
  const std::vector<PackUnpackPoint>& points = fixture().params.pack_unpack.points();
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (bytes > points[i].bytes) continue;
    const PackUnpackPoint& lo = points[i - 1];
    const PackUnpackPoint& hi = points[i];
    const double t_lo = pack ? lo.pack_slowest_seconds : lo.unpack_slowest_seconds;
    const double t_hi = pack ? hi.pack_slowest_seconds : hi.unpack_slowest_seconds;
    EXPECT_GT(t_lo, 0.0) << "the H100 table has slowest-shape times";
    const double f =
        static_cast<double>(bytes - lo.bytes) / static_cast<double>(hi.bytes - lo.bytes);
    return t_lo + f * (t_hi - t_lo);
  }
  ADD_FAILURE() << bytes << " B is beyond the table";
  return 0.0;
}

TEST(MpiPiecesPrediction, FlagStrategiesPayTheFirstPackAndTheLastUnpack) {
  for (const PieceCase& c : kCases) {
    const halo::ExchangeConfig config = halo::read_config_file(kConfigs / c.config);
    for (const Strategy strategy : kFlagStrategies) {
      for (const int ranks_per_gpu : {1, 2}) {
        SCOPED_TRACE(std::string(c.config) + " pieces of " + std::to_string(c.piece_bytes) +
                     " B, " + std::string(halo::to_string(strategy)) + ", " +
                     std::to_string(ranks_per_gpu) + " rank(s) per GPU");
        const StrategyPrediction whole = predict(config, strategy, 0, ranks_per_gpu);
        const StrategyPrediction cut = predict(config, strategy, c.piece_bytes, ranks_per_gpu);
        EXPECT_LT(cut.seconds, whole.seconds);
        EXPECT_EQ(cut.mpi_piece_bytes, c.piece_bytes);
        ASSERT_EQ(cut.phases.size(), 4u);
        ASSERT_EQ(whole.phases.size(), 4u);
        EXPECT_EQ(cut.phases[0], whole.phases[0]);  // the fixed cost
        EXPECT_EQ(cut.phases[1].name, "pack (first piece)");
        EXPECT_NEAR(cut.phases[1].seconds, slowest_seconds(c.first_piece_bytes, true), 1e-12);
        EXPECT_EQ(cut.phases[2], whole.phases[2]);  // MPI copies every byte, as before
        EXPECT_EQ(cut.phases[3].name, "unpack (last piece)");
        EXPECT_NEAR(cut.phases[3].seconds, slowest_seconds(c.last_piece_bytes, false), 1e-12);
        EXPECT_NEAR(sum(cut.phases), cut.seconds, 1e-15);
        EXPECT_TRUE(cut.notes == whole.notes);
      }
    }
  }
}

TEST(MpiPiecesPrediction, BulkStrategiesAndStreamBaseSendWhole) {
  for (const PieceCase& c : kCases) {
    const halo::ExchangeConfig config = halo::read_config_file(kConfigs / c.config);
    for (const Strategy strategy : kWholeStrategies) {
      SCOPED_TRACE(std::string(c.config) + ", " + std::string(halo::to_string(strategy)));
      const StrategyPrediction whole = predict(config, strategy, 0);
      const StrategyPrediction cut = predict(config, strategy, c.piece_bytes);
      EXPECT_EQ(cut.seconds, whole.seconds);
      EXPECT_EQ(cut.phases, whole.phases);
      EXPECT_EQ(cut.mpi_piece_bytes, 0);
      EXPECT_NEAR(sum(cut.phases), cut.seconds, 1e-15);
    }
  }
}

TEST(MpiPiecesPrediction, NothingCutIsChargedWhole) {
  for (const char* name : {"comb_200_np2_reduced.cfg", "comb_800_np2_reduced.cfg"}) {
    const halo::ExchangeConfig config = halo::read_config_file(kConfigs / name);
    for (const Strategy strategy : kFlagStrategies) {
      SCOPED_TRACE(std::string(name) + ", " + std::string(halo::to_string(strategy)));
      const MachineParams& params = fixture().params;
      const StrategyPrediction defaulted = predict_strategy(
          config, params, *params.mapping, strategy, TransportChoice::mpi, 1);
      const StrategyPrediction zero = predict(config, strategy, 0);
      // Longer than every message (960000 B at most): each one is a single piece.
      const StrategyPrediction larger = predict(config, strategy, 1 << 20);
      EXPECT_EQ(zero.phases, defaulted.phases);
      EXPECT_EQ(larger.phases, defaulted.phases);
      EXPECT_EQ(larger.seconds, defaulted.seconds);
      ASSERT_EQ(larger.phases.size(), 4u);
      EXPECT_EQ(larger.phases[1].name, "pack");
      EXPECT_EQ(larger.phases[3].name, "unpack");
    }
  }
}

TEST(MpiPiecesPrediction, NodeTransportIsNotCut) {
  // Both ranks share a node in the H100 file: every message takes the node grid, no MPI peer.
  const halo::ExchangeConfig config =
      halo::read_config_file(kConfigs / "comb_800_np2_reduced.cfg");
  for (const Strategy strategy : kFlagStrategies) {
    SCOPED_TRACE(halo::to_string(strategy));
    const StrategyPrediction whole = predict(config, strategy, 0, 1, TransportChoice::node);
    const StrategyPrediction cut = predict(config, strategy, 65536, 1, TransportChoice::node);
    EXPECT_TRUE(cut.node_transport_used);
    EXPECT_EQ(cut.phases, whole.phases);
    EXPECT_EQ(cut.seconds, whole.seconds);
  }
}

TEST(MpiPiecesPrediction, MessagesWithoutBoxesAreChargedWholeAndSaid) {
  halo::ExchangeConfig config = halo::read_config_file(kConfigs / "comb_200_np2_reduced.cfg");
  for (halo::RankMessages& rank : config.rank_messages) {
    for (halo::Message& m : rank.sends) m.boxes.clear();
    for (halo::Message& m : rank.recvs) m.boxes.clear();
  }
  const StrategyPrediction whole = predict(config, Strategy::resident, 0);
  const StrategyPrediction cut = predict(config, Strategy::resident, 16384);
  EXPECT_EQ(cut.phases, whole.phases);
  bool said = false;
  for (const std::string& note : cut.notes) {
    said = said || note.find("pieces over mpi of 16384 B") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

TEST(MpiPiecesPrediction, RefusesANegativePieceSize) {
  const halo::ExchangeConfig config = halo::read_config_file(kConfigs / "comb_200_np2_reduced.cfg");
  EXPECT_THROW(predict(config, Strategy::resident, -1), ModelError);
}

}  // namespace
