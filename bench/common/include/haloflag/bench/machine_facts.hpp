// The host a run measured: name, CPU, operating system, and when (the GPU comes from the
// device side). No MPI here, so this is gathered directly rather than through RunInfo.
#pragma once

#include <string>

namespace haloflag::bench {

struct MachineFacts {
  std::string hostname;
  std::string cpu_model;  // the first "model name" of /proc/cpuinfo; empty when unknown
  std::string os;         // e.g. "Linux 6.1.0-18-amd64 x86_64"
  std::string date;       // UTC, ISO 8601
};

MachineFacts collect_machine_facts();

}  // namespace haloflag::bench
