#include "params_choice.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "haloflag/bench/build_info.hpp"
#include "haloflag/bench/display_path.hpp"

namespace haloflag::bench {

namespace {

std::string slug(const std::string& text) {
  std::string result;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.') {
      result += static_cast<char>(std::tolower(u));
    } else if (!result.empty() && result.back() != '-') {
      result += '-';
    }
  }
  while (!result.empty() && (result.back() == '-' || result.back() == '.')) result.pop_back();
  return result;
}

std::vector<std::filesystem::path> search_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* dir = std::getenv("HALOFLAG_PARAMS_DIR"); dir != nullptr && *dir != '\0') {
    dirs.emplace_back(dir);
  }
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    dirs.push_back(std::filesystem::path(cache) / "haloflag" / "params");
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    dirs.push_back(std::filesystem::path(home) / ".cache" / "haloflag" / "params");
  }
  dirs.push_back(source_dir() / "model" / "params");
  return dirs;
}

}  // namespace

std::string machine_params_key(const std::string& gpu_name, int gpus,
                               const std::string& mpi_library) {
  const std::string mpi = mpi_library.substr(0, mpi_library.find(','));
  const std::string count = gpus > 1 ? "-x" + std::to_string(gpus) : "";
  return slug(gpu_name.empty() ? "host" : gpu_name) + count + "__" + slug(mpi);
}

ParamsChoice choose_params(const std::string& given, const std::string& gpu_name, int gpus,
                           const std::string& mpi_library) {
  ParamsChoice choice;
  choice.machine_key = machine_params_key(gpu_name, gpus, mpi_library);
  if (!given.empty()) {
    choice.path = given;
    choice.how = "given with --params";
    return choice;
  }
  for (const std::filesystem::path& dir : search_dirs()) {
    const std::filesystem::path file = dir / (choice.machine_key + ".json");
    std::error_code error;
    if (std::filesystem::is_regular_file(file, error)) {
      choice.path = file.string();
      choice.for_this_machine = true;
      choice.how = "this machine's calibration (" + choice.machine_key + ")";
      return choice;
    }
  }
  choice.path = (source_dir() / "model" / "params" / "power9_v100.json").string();
  choice.how = "no calibration for this machine (" + choice.machine_key +
               "): scripts/calibrate_machine.sh makes one and caches it";
  return choice;
}

}  // namespace haloflag::bench
