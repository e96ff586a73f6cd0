// The command line of haloflag_jacobi2d. -nx, -ny, -niter, -nccheck and -csv are spelled as the
// peer spells them, so that the same command line runs both programs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"
#include "precision.hpp"
#include "variant.hpp"

namespace jacobi2d {

struct Options {
  std::int64_t nx = 16384;
  std::int64_t ny = 16384;
  int niter = 1000;   // iterations per run
  int nccheck = 1;    // the norm every nccheck iterations
  bool csv = false;   // print only the CSV lines
  std::vector<VariantKind> variants;  // in VariantKind order, each once
  std::string variant_argument = "all";
  Precision precision = Precision::float32;
  int warmup = 1;
  int repeats = 5;
  std::string backend_name = "auto";
  int gpu = -1;  // GPU index for every rank; -1: node-local rank
  std::string json_path;
  double timeout_seconds = 60.0;
  int gpu_threads = 256;
  int resident_blocks = 0;
  int node_blocks = 0;  // the node transport's piece grid; 0: its default
  int node_piece_bytes = 0;  // bytes of a node piece; 0: by the resident kernel's order
  std::string sends_update = "auto";  // resident: auto, on or off (--sends-update)
  bool next_exchange_told = true;  // resident: finish tells where the next exchange goes
  int host_team_threads = 2;
  std::string transport = "auto";
  std::string progress = "thread";
  std::string conventional_strategy = "comb_graph";
};

// Rewrites the peer's single-dash options (-nx ...) to the double-dash ones CLI11 accepts.
std::vector<std::string> translate_peer_options(int argc, char** argv);

// Throws CLI::ParseError (and CLI::CallForHelp for --help) like CLI11 does.
Options parse_options(CLI::App& app, int argc, char** argv);

}  // namespace jacobi2d
