#include "pack_unpack_options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "haloflag/bench/output_path.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::bench {

namespace {

namespace fs = std::filesystem;

const fs::path kShippedConfigs = HALOFLAG_COMB_CONFIG_DIR;

// Every shipped config, sorted: their messages are the sizes the exchanges really send.
std::vector<std::string> shipped_configs() {
  std::vector<std::string> configs;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(kShippedConfigs, error)) {
    if (entry.path().extension() == ".cfg") configs.push_back(entry.path().string());
  }
  if (error || configs.empty()) {
    throw std::invalid_argument("no shipped configs found in " + kShippedConfigs.string() +
                                ": name some with --config, or --config '' for none");
  }
  std::sort(configs.begin(), configs.end());
  return configs;
}

// With 3 variables: corners of 24 B, edges of 48 B to 10 KB, faces of 96 B to 4 MiB (418 x 418).
const std::vector<std::int64_t> kDefaultCubes{2, 4, 8, 16, 32, 64, 128, 256, 418};
const std::vector<std::int64_t> kQuickCubes{4, 8, 16};
// Whole halos of 0.16 MB to 9.5 MB with 3 variables: from launch-bound to bandwidth-bound.
const std::vector<std::int64_t> kDefaultHaloCubes{32, 64, 128, 256};
const std::vector<std::int64_t> kQuickHaloCubes{8, 16};
constexpr const char* kQuickConfig = "comb_200_np2_reduced.cfg";
// A cube of 2000 cells a side already needs 190 GB of fields with 3 variables.
constexpr std::int64_t kLargestCube = 2000;

}  // namespace

std::string to_string(TableTime time) { return time == TableTime::block ? "block" : "launch"; }

void add_pack_unpack_options(CLI::App& app, PackUnpackOptions& options) {
  app.add_option("--config", options.configs,
                 "communication configs: rank 0's messages are timed (default: every shipped "
                 "comb_configs/*.cfg; '' for none)")
      ->delimiter(',');
  app.add_option("--cubes", options.cubes,
                 "sides of cube subdomains (ghost 1, periodic, 26 neighbours) whose corner, edge "
                 "and face messages are timed (default: 2,4,...,256,418: faces of 96 B to 4 MiB)")
      ->delimiter(',')
      ->check(CLI::Range(std::int64_t{1}, kLargestCube));
  // '' (none) reads as the one side 0, which the range check refuses when given as a number.
  const CLI::Validator side = CLI::Range(std::int64_t{1}, kLargestCube);
  const CLI::Validator side_or_none(
      [side](std::string& text) { return text.empty() ? std::string() : side(text); },
      side.get_description() + " or ''");
  app.add_option("--halo-cubes", options.halo_cubes,
                 "sides of cube subdomains whose whole halo (26 sends, 26 receives) is packed and "
                 "unpacked by the fused kernels, buffer pinned and in device memory (default: "
                 "32,64,128,256; '' for none)")
      ->delimiter(',')
      ->check(side_or_none);
  app.add_option("--sizes", options.sizes,
                 "keep only messages of these sizes in bytes (default: every size found)")
      ->delimiter(',')
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  app.add_option("--vars", options.vars, "variables per cell of the cube subdomains")
      ->capture_default_str()
      ->check(CLI::Range(1, kernels::kMaxVariables));
  app.add_option("--warmup", options.warmup, "untimed runs per message shape first")
      ->capture_default_str()
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  app.add_option("--iterations", options.iterations, "timed runs per message shape")
      ->capture_default_str()
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  app.add_option("--backend", options.backend, "where the kernels run; auto: the best present")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "host", "cuda", "hip"}));
  app.add_option("--gpu", options.gpu, "GPU index for every rank (default: node-local rank)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  app.add_option("--message-threads", options.message_threads,
                 "threads of the one block per message (the engine's default)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--host-threads", options.host_threads, "host backend: threads per lane")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  const std::map<std::string, TableTime> table_times{{"block", TableTime::block},
                                                      {"launch", TableTime::launch}};
  app.add_option("--table-time", options.table_time,
                 "time written to the table: block (the block's own clock stamps) or launch "
                 "(launch to synchronize, seen by the host)")
      ->transform(CLI::CheckedTransformer(table_times, CLI::ignore_case))
      ->default_str("block");
  app.add_option("--timeout", options.timeout_seconds,
                 "deadline of every flag wait, seconds")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 3600.0));
  app.add_flag("--quick", options.quick,
               "CI mode: cubes 4,8,16, halo cubes 8,16, config comb_200_np2_reduced.cfg, "
               "10 iterations, 2 warm-up (where not given)");
  app.add_option("-o,--out", options.out_path, "pack/unpack table file to write (JSON)")
      ->required();
  CLI::Option* raw = app.add_option("--raw", options.raw_path,
                                     "raw measurements file (default: the table's name with "
                                     ".raw.json)");
  CLI::Option* refit =
      app.add_option("--refit", options.refit_path,
                     "measure nothing: fit the halo sets of this raw file (timed on every rank "
                     "at once) again and write its table with those fits to --out")
          ->check(CLI::ExistingFile);
  for (const char* measuring : {"--config", "--cubes", "--halo-cubes", "--sizes", "--quick",
                                "--iterations", "--warmup"}) {
    refit->excludes(app.get_option(measuring));
  }
  refit->excludes(raw);
}

void complete_pack_unpack_options(const CLI::App& app, PackUnpackOptions& options) {
  if (!options.refit_path.empty()) return;
  const bool configs_given = app.count("--config") > 0;
  if (options.quick) {
    if (app.count("--cubes") == 0) options.cubes = kQuickCubes;
    if (!configs_given) options.configs = {(kShippedConfigs / kQuickConfig).string()};
    if (app.count("--iterations") == 0) options.iterations = 10;
    if (app.count("--warmup") == 0) options.warmup = 2;
  }
  if (app.count("--cubes") == 0 && !options.quick) options.cubes = kDefaultCubes;
  if (app.count("--halo-cubes") == 0) {
    options.halo_cubes = options.quick ? kQuickHaloCubes : kDefaultHaloCubes;
  }
  // '' (read as 0) stands for none; the fit needs two different sides.
  std::erase(options.halo_cubes, std::int64_t{0});
  std::sort(options.halo_cubes.begin(), options.halo_cubes.end());
  options.halo_cubes.erase(std::unique(options.halo_cubes.begin(), options.halo_cubes.end()),
                           options.halo_cubes.end());
  if (options.halo_cubes.size() == 1) {
    throw std::invalid_argument("--halo-cubes needs at least 2 sides for the fit, or '' for none");
  }
  if (!configs_given && !options.quick) options.configs = shipped_configs();
  // --config '' stands for no config at all.
  std::erase_if(options.configs, [](const std::string& path) { return path.empty(); });
  if (options.configs.empty() && options.cubes.empty()) {
    throw std::invalid_argument("nothing to time: give --cubes or --config");
  }
  if (options.out_path.empty()) throw std::invalid_argument("--out: the table needs a file name");
  if (options.raw_path.empty()) {
    fs::path raw = options.out_path;
    raw.replace_extension(".raw.json");
    options.raw_path = raw.string();
  }
  if (fs::path(options.raw_path) == fs::path(options.out_path)) {
    throw std::invalid_argument("--raw names the table file itself (" + options.out_path + ")");
  }
}

std::string output_folder_problem(const PackUnpackOptions& options) {
  const std::pair<const char*, const std::string*> outputs[] = {{"--out", &options.out_path},
                                                                {"--raw", &options.raw_path}};
  for (const auto& [option, path] : outputs) {
    std::string problem = output_path_problem(option, *path);  // a refit writes no raw file
    if (!problem.empty()) return problem;
  }
  return {};
}

}  // namespace haloflag::bench
