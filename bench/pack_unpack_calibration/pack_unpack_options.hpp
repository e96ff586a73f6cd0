// Options of haloflag_calibrate_pack_unpack (docs/model.md lists them with their defaults).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"

namespace haloflag::bench {

// Which of the two times fills the table (both are always measured and kept in the raw file).
enum class TableTime {
  block,   // the block's own time, from its clock stamps: the work of packing or unpacking
  launch,  // launch to synchronize on the host: the work plus a kernel launch and its wait
};

struct PackUnpackOptions {
  std::vector<std::string> configs;  // communication configs whose rank-0 messages are timed
  std::vector<std::int64_t> cubes;   // sides of cube subdomains whose 26 messages are timed
  std::vector<std::int64_t> sizes;   // keep only messages of these sizes; empty: every size
  // Sides of cube subdomains whose 26 sends and 26 receives are timed together, by the fused
  // kernels (bulk strategies); empty: none.
  std::vector<std::int64_t> halo_cubes;
  int vars = 3;                      // variables per cell of the cube subdomains
  int warmup = 10;                   // untimed runs per message shape first
  int iterations = 100;              // timed runs per message shape
  std::string backend = "auto";
  int gpu = -1;                      // GPU of every rank; -1: node-local rank
  int message_threads = 1024;        // threads of the one block per message
  int host_threads = 2;              // host backend: threads per lane
  TableTime table_time = TableTime::block;
  double timeout_seconds = 30.0;     // deadline of the unpack block's flag wait
  bool quick = false;
  std::string out_path;              // the pack/unpack table
  std::string raw_path;              // the raw measurements; default: beside the table
  // A raw file of an earlier run whose halo sets are fitted again, measuring nothing
  // (halo_set_refit.hpp); empty: measure.
  std::string refit_path;
};

// Adds every option to `app`, bound to `options`.
void add_pack_unpack_options(CLI::App& app, PackUnpackOptions& options);

// After parsing: quick-mode defaults for what was not given, the raw file's default path, and
// the default configs and halo cubes (none of which a refit uses). Throws std::invalid_argument for values CLI11 cannot check
// alone.
void complete_pack_unpack_options(const CLI::App& app, PackUnpackOptions& options);

// Empty when the table and the raw file can be written (output_path_problem); else what is
// wrong, naming the option. Checked before measuring, so that a typo does not cost a whole calibration.
std::string output_folder_problem(const PackUnpackOptions& options);

std::string to_string(TableTime time);

}  // namespace haloflag::bench
