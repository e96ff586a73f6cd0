// Whether a tool can write a file where it was asked to, checked before it measures anything:
// a run of many minutes must not end with "cannot write the JSON file" and lose its results.
#pragma once

#include <string>

namespace haloflag::bench {

// Empty when `path` can be written (its folder exists and is writable, and the path is not a
// folder or a read-only file); else what is wrong, beginning "<option> <path>: ". An empty path
// (no file asked for) is fine.
std::string output_path_problem(const std::string& option, const std::string& path);

}  // namespace haloflag::bench
