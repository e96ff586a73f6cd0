// A path as a reader wants to see it in a table or a message.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace haloflag::bench {

// Relative to the working directory when it lies below it (comb_configs/x.cfg from the
// repository root), otherwise as given.
inline std::string display_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::proximate(path, error);
  if (error || relative.empty() || *relative.begin() == "..") return path;
  return relative.string();
}

}  // namespace haloflag::bench
