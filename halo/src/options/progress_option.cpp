#include "haloflag/halo/progress.hpp"

#include <stdexcept>
#include <string>

#include "parse_named.hpp"

namespace haloflag::halo {

std::string_view to_string(Progress progress) {
  return progress == Progress::thread ? "thread" : "caller";
}

Progress parse_progress(std::string_view name) {
  constexpr Progress kProgress[] = {Progress::caller, Progress::thread};
  return detail::parse_named<Progress>(name, kProgress, "progress");
}

}  // namespace haloflag::halo
