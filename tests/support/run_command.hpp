// Runs a command-line tool through the shell for CLI tests, capturing exit code, stdout and
// stderr (via files in a per-process scratch folder).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace haloflag::test {

struct RunResult {
  int exit_code = -1;  // -1 when the shell could not run it or it did not exit normally
  std::string out;
  std::string err;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A path quoted for the shell (paths in tests hold no single quotes).
inline std::string shell_quoted(const std::filesystem::path& path) {
  std::string text = "'";
  text.append(path.string()).append("'");
  return text;
}

// Runs `program arguments` (arguments: a shell word list) with its output captured in `scratch`.
inline RunResult run_command(const std::filesystem::path& program, const std::string& arguments,
                             const std::filesystem::path& scratch) {
  std::filesystem::create_directories(scratch);
  const std::filesystem::path out = scratch / "stdout.txt";
  const std::filesystem::path err = scratch / "stderr.txt";
  // Appended piece by piece: `"'" + std::string(...)` trips GCC 12's false -Wrestrict.
  std::string command = shell_quoted(program);
  command.append(" ").append(arguments);
  command.append(" >").append(shell_quoted(out)).append(" 2>").append(shell_quoted(err));
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

}  // namespace haloflag::test
