#include "haloflag/bench/machine_facts.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <ctime>
#include <fstream>

namespace haloflag::bench {

namespace {

std::string operating_system() {
  utsname system{};
  if (uname(&system) != 0) return {};
  return std::string(system.sysname) + " " + system.release + " " + system.machine;
}

// As RunInfo's date (model/calibration), which lives in an MPI-linked library.
std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0 && line.rfind("cpu\t", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return {};
  return name.data();
}

MachineFacts collect_machine_facts() {
  return MachineFacts{host_name(), cpu_model_name(), operating_system(), utc_now_iso8601()};
}

}  // namespace haloflag::bench
