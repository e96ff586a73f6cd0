// The generator CLI: bad input ends with a non-zero exit and a message on stderr (and no config
// on stdout); good input writes a config the parser accepts; every shipped file is exactly what
// the generator writes for the arguments recorded in it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "haloflag/halo/config_file.hpp"
#include "run_command.hpp"

#ifndef HALOFLAG_GEN_CONFIG
#error "HALOFLAG_GEN_CONFIG must name the haloflag_gen_config executable"
#endif
#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name the folder of the shipped configs"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_gen_config_test_" + std::to_string(::getpid()));

using haloflag::test::read_text;
using haloflag::test::RunResult;

// Runs the generator with `arguments` (a shell word list), capturing stdout and stderr.
RunResult run_generator(const std::string& arguments) {
  return haloflag::test::run_command(HALOFLAG_GEN_CONFIG, arguments, kScratch);
}

void expect_rejected(const std::string& arguments, const std::string& message) {
  const RunResult r = run_generator(arguments);
  EXPECT_NE(r.exit_code, 0) << arguments;
  EXPECT_NE(r.exit_code, -1) << arguments << ": did not exit normally";
  EXPECT_NE(r.err.find(message), std::string::npos)
      << arguments << "\nstderr: " << r.err << "\nexpected: " << message;
  EXPECT_TRUE(r.out.empty()) << arguments << " wrote a config anyway:\n" << r.out.substr(0, 200);
}

TEST(GenConfigCli, RejectsARankGridThatDoesNotMatchTheRanks) {
  expect_rejected("--size 200 --divide 4,4,2 --ranks 64",
                  "the rank grid 4x4x2 holds 32 ranks, but the number of ranks is 64");
}

TEST(GenConfigCli, RejectsZeroOrNegativeSizes) {
  expect_rejected("--size 0 --ranks 4", "the global size along x must be positive, got 0");
  expect_rejected("--size 200,-5,200 --ranks 4", "the global size along y must be positive, got -5");
  expect_rejected("--size=-7 --ranks 4", "the global size along z must be positive, got -7");
  expect_rejected("--size 200 --ranks 0", "the number of ranks must be positive, got 0");
  expect_rejected("--size 200 --ranks -3", "the number of ranks must be positive, got -3");
  expect_rejected("--size 200 --divide 2,0,2", "has 0 ranks along y");
  expect_rejected("--size 200 --ranks 8 --ghost 0", "ghost width along x must be positive, got 0");
  expect_rejected("--size 200 --ranks 8 --vars 0", "the number of variables must be positive");
  expect_rejected("--size 200 --ranks 8 --element-bytes -8",
                  "the element size must be a positive number of bytes, got -8");
}

TEST(GenConfigCli, RejectsAGhostWiderThanASubdomain) {
  expect_rejected("--size 10 --divide 4,1,1 --ghost 3",
                  "the ghost width 3 along x is wider than the subdomain of rank 3 (2 cells "
                  "along x: 10 cells split 4 ways)");
}

TEST(GenConfigCli, RejectsMalformedArguments) {
  expect_rejected("--size 10,10 --ranks 2", "--size takes N or X,Y,Z, got '10,10'");
  expect_rejected("--size 1O --ranks 2", "--size: '1O' is not an integer");
  expect_rejected("--size 100 --ranks 2 --periodic 1,2,1", "--periodic takes 0 or 1 per axis");
  expect_rejected("--size 100", "give --divide PX,PY,PZ or --ranks N");
  expect_rejected("--ranks 2", "--size is required");
  expect_rejected("--size 100 --ranks 2 --colour red", "--colour");
}

TEST(GenConfigCli, RejectsAReductionFromABoundaryRank) {
  expect_rejected("--size 200 --divide 4,4,4 --periodic 0 --reduce-to-2-ranks 0",
                  "source rank 0 has 7 of 26 neighbours");
  expect_rejected("--size 200 --divide 4,4,4 --periodic 1 --reduce-to-2-ranks 64",
                  "source rank 64 is out of range [0, 64)");
}

TEST(GenConfigCli, RejectsReductionsToOtherRankCountsOrRanksOutOfRange) {
  const std::string paper = "--size 200 --divide 4,4,4 --periodic 1 ";
  expect_rejected(paper + "--reduce-to-ranks 3 --reduce-rank 21",
                  "--reduce-to-ranks takes 2, 4 or 8 ranks, got 3");
  expect_rejected(paper + "--reduce-to-ranks 16 --reduce-rank 21",
                  "--reduce-to-ranks takes 2, 4 or 8 ranks, got 16");
  expect_rejected(paper + "--reduce-to-ranks 4 --reduce-rank 64",
                  "cannot reduce to 4 ranks: source rank 64 is out of range [0, 64)");
  expect_rejected(paper + "--reduce-to-ranks 8 --reduce-rank -1",
                  "cannot reduce to 8 ranks: source rank -1 is out of range [0, 64)");
  expect_rejected(paper + "--reduce-to-ranks 4", "--reduce-to-ranks requires --reduce-rank");
  expect_rejected(paper + "--reduce-rank 21", "--reduce-rank requires --reduce-to-ranks");
  expect_rejected(paper + "--reduce-to-2-ranks 21 --reduce-to-ranks 4 --reduce-rank 21",
                  "excludes");
}

// Two ranks are the same config however they are asked for, recorded the original way.
TEST(GenConfigCli, ReductionToTwoRanksIsTheSameEitherWay) {
  const std::string paper = "--size 200 --divide 4,4,4 --periodic 1 --vars 3 ";
  const RunResult original = run_generator(paper + "--reduce-to-2-ranks 21");
  const RunResult general = run_generator(paper + "--reduce-to-ranks 2 --reduce-rank 21");
  ASSERT_EQ(original.exit_code, 0) << original.err;
  ASSERT_EQ(general.exit_code, 0) << general.err;
  EXPECT_EQ(general.out, original.out);
  EXPECT_NE(original.out.find("--reduce-to-2-ranks 21\n"), std::string::npos);
}

TEST(GenConfigCli, WritesAConfigTheParserAccepts) {
  const fs::path file = kScratch / "small.cfg";
  const RunResult r =
      run_generator("--size 30,20,10 --ranks 6 --periodic 1,0,1 --ghost 2 --vars 2 --faces-only "
                    "--output '" + file.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto config = haloflag::halo::read_config_file(file);
  EXPECT_EQ(config.ranks, 6);
  EXPECT_EQ(config.geometry->stencil, haloflag::halo::Stencil::faces6);

  const RunResult to_stdout = run_generator("--size 30,20,10 --ranks 6 --periodic 1,0,1 "
                                            "--ghost 2 --vars 2 --faces-only");
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, read_text(file));
  EXPECT_TRUE(to_stdout.err.empty()) << to_stdout.err;
}

TEST(GenConfigCli, ShippedFilesAreExactlyWhatTheGeneratorWrites) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(HALOFLAG_COMB_CONFIG_DIR)) {
    if (entry.path().extension() != ".cfg") continue;
    const std::string shipped = read_text(entry.path());
    const std::string marker = "# arguments: ";
    const auto begin = shipped.find(marker);
    ASSERT_NE(begin, std::string::npos) << entry.path() << " records no generator arguments";
    const auto end = shipped.find('\n', begin);
    const std::string arguments = shipped.substr(begin + marker.size(), end - begin - marker.size());
    const fs::path regenerated = kScratch / entry.path().filename();
    const RunResult r = run_generator(arguments + " --output '" + regenerated.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << arguments << ": " << r.err;
    EXPECT_TRUE(read_text(regenerated) == shipped)
        << entry.path() << " differs from the generator's output for: " << arguments
        << "\n(run comb_configs/regenerate.sh)";
    ++checked;
  }
  EXPECT_EQ(checked, 14);
}

class ScratchCleanup : public testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(kScratch, ignored);
  }
};

const auto* const kCleanup = testing::AddGlobalTestEnvironment(new ScratchCleanup);

}  // namespace
