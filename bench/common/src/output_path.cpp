#include "haloflag/bench/output_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace haloflag::bench {

namespace fs = std::filesystem;

namespace {

// access(2) says what the tool's own user may do, which is what the later write will meet.
std::string denied(const fs::path& path, int mode) {
  if (::access(path.c_str(), mode) == 0) return {};
  return std::strerror(errno);
}

}  // namespace

std::string output_path_problem(const std::string& option, const std::string& path) {
  if (path.empty()) return {};
  const std::string prefix = option + " " + path + ": ";
  const fs::path file(path);
  fs::path folder = file.parent_path();
  if (folder.empty()) folder = ".";
  std::error_code error;
  if (!fs::exists(folder, error)) {
    return prefix + "the folder " + folder.string() + " does not exist";
  }
  if (!fs::is_directory(folder, error)) {
    return prefix + folder.string() + " is not a folder";
  }
  if (const std::string why = denied(folder, W_OK | X_OK); !why.empty()) {
    return prefix + "the folder " + folder.string() + " is not writable (" + why + ")";
  }
  if (fs::is_directory(file, error)) return prefix + "names a folder, not a file";
  if (fs::exists(file, error)) {
    if (const std::string why = denied(file, W_OK); !why.empty()) {
      return prefix + "the file exists and cannot be overwritten (" + why + ")";
    }
  }
  return {};
}

}  // namespace haloflag::bench
