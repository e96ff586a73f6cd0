// The host a run measured: name, CPU, operating system, and when. Read directly, without MPI, so
// that notify_latency (one process, no MPI) has them too; the MPI tools' MachineInfo takes the
// CPU model from here.
#pragma once

#include <string>

namespace haloflag::bench {

struct MachineFacts {
  std::string hostname;
  std::string cpu_model;  // cpu_model_name()
  std::string os;         // e.g. "Linux 6.1.0-18-amd64 x86_64"
  std::string date;       // UTC, ISO 8601
};

MachineFacts collect_machine_facts();

// The first "model name" line of /proc/cpuinfo (x86 and most others; "cpu" on POWER); empty
// when unknown.
std::string cpu_model_name();

// gethostname(); empty when it fails.
std::string host_name();

}  // namespace haloflag::bench
