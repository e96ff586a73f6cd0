#include "haloflag/halo/progress.hpp"

#include <stdexcept>
#include <string>

namespace haloflag::halo {

std::string_view to_string(Progress progress) {
  return progress == Progress::thread ? "thread" : "caller";
}

Progress parse_progress(std::string_view name) {
  if (name == "caller") return Progress::caller;
  if (name == "thread") return Progress::thread;
  throw std::invalid_argument("unknown progress '" + std::string(name) +
                              "' (expected caller or thread)");
}

}  // namespace haloflag::halo
