#include "haloflag/halo/errors.hpp"

#include <utility>

namespace haloflag::halo {

namespace {

std::string join_lines(const std::vector<std::string>& lines) {
  std::string joined;
  for (const std::string& line : lines) {
    if (!joined.empty()) joined += '\n';
    joined += line;
  }
  return joined;
}

}  // namespace

ProblemListError::ProblemListError(const std::string& problem)
    : Error(ErrorKind::config, problem), problems_{problem} {}

ProblemListError::ProblemListError(std::vector<std::string> problems)
    : Error(ErrorKind::config, join_lines(problems)), problems_(std::move(problems)) {}

}  // namespace haloflag::halo
