// The command line of haloflag_jacobi3d.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/transport.hpp"
#include "jacobi_variant.hpp"
#include "precision.hpp"
#include "problem.hpp"
#include "stencil_kind.hpp"

namespace jacobi3d {

struct JacobiOptions {
  std::vector<VariantKind> variants;  // in VariantKind order, each once
  StencilKind stencil = StencilKind::seven_point;
  Precision precision = Precision::float64;  // the field's element type
  SizeKind size_kind = SizeKind::per_rank;
  haloflag::halo::Index3 size{32, 32, 32};
  int iterations = 100;  // per timed repeat
  int warmup = 1;        // untimed runs of `iterations` before the timed ones
  int repeats = 10;      // timed runs; statistics are over these
  std::string backend_name = "auto";
  int gpu = -1;          // GPU index for every rank; -1: node-local rank
  bool check = false;
  std::string json_path;
  double timeout_seconds = 30.0;
  int gpu_threads = 256;
  int resident_blocks = 0;
  int node_blocks = 0;  // the node transport's piece grid; 0: its default
  int node_piece_bytes = 0;  // bytes of a node piece; 0: the library's default
  bool next_exchange_told = true;  // resident: finish tells where the next exchange goes
  // resident: whether the sends update the cells they send: auto (with the interior by counter,
  // else by the cells per thread), on or off
  std::string sends_update = "auto";
  bool interior_by_counter = true;  // resident: the interior shared out by a counter
  int host_team_threads = 2;
  std::string transport = "auto";  // auto, mpi or node (docs/transports.md)
  int node_size = 0;
  // Node peers whose messages hold at most this many bytes an exchange go in lines; 0: never.
  std::int64_t node_lines_up_to_bytes = haloflag::halo::kDefaultNodeLinesUpToBytes;
  std::string progress = "thread";  // the stream variant's progress: caller or thread
  // The conventional variants' exchange: auto (conventional comb_fused, conventional_overlap
  // comb_graph), comb_fused or comb_graph (both variants).
  std::string conventional_strategy = "auto";
  // Time each variant's update alone and the device's copy rate (the update-rate report).
  bool update_rate = true;
  std::string variant_argument = "all";  // as given, for the report
};

// Throws CLI::ParseError (and CLI::CallForHelp for --help) like CLI11 does.
JacobiOptions parse_jacobi_options(CLI::App& app, int argc, char** argv);

}  // namespace jacobi3d
