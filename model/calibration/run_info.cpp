#include "run_info.hpp"

#include <algorithm>
#include <ctime>
#include <string_view>
#include <vector>

#include "mpi_call.hpp"

extern char** environ;  // POSIX

namespace haloflag::model::calibration {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::vector<std::string> mpi_settings_of(const char* const* environment) {
  std::vector<std::string> settings;
  for (const char* const* entry = environment; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    // Open MPI's launcher sets many OMPI_MCA_orte_* and ess_* entries of its own: only the
    // transport frameworks are kept.
    for (const std::string_view prefix :
         {"OMPI_MCA_btl", "OMPI_MCA_pml", "OMPI_MCA_mtl", "OMPI_MCA_osc", "OMPI_MCA_coll",
          "OMPI_MCA_smsc", "OMPI_MCA_opal_cuda", "OMPI_MCA_mpi_leave_pinned", "MPIR_CVAR_",
          "MPICH_", "UCX_"}) {
      if (text.starts_with(prefix)) {
        settings.emplace_back(text);
        break;
      }
    }
  }
  std::sort(settings.begin(), settings.end());
  return settings;
}

std::string describe_mpi_settings(const std::vector<std::string>& settings) {
  if (settings.empty()) return "none set in the environment";
  std::string text;
  for (const std::string& setting : settings) text += (text.empty() ? "" : " ") + setting;
  return text;
}

RunInfo collect_run_info(MPI_Comm comm, const std::string& tool) {
  RunInfo info;
  info.tool = tool;
  info.date = utc_now_iso8601();
  info.mpi_settings = mpi_settings_of(environ);
  check_mpi(MPI_Comm_size(comm, &info.ranks), "MPI_Comm_size");

  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  check_mpi(MPI_Get_library_version(library, &length), "MPI_Get_library_version");
  // Open MPI counts the terminating NUL in length; the text ends at the first NUL either way.
  info.mpi_library = std::string(library, static_cast<std::size_t>(length)).c_str();
  if (const auto end = info.mpi_library.find_first_of("\r\n"); end != std::string::npos) {
    info.mpi_library.resize(end);
  }

  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int name_length = 0;
  check_mpi(MPI_Get_processor_name(name, &name_length), "MPI_Get_processor_name");
  std::vector<char> all(static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME) * info.ranks);
  check_mpi(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                          MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm),
            "MPI_Allgather(processor names)");
  for (int rank = 0; rank < info.ranks; ++rank) {
    info.hosts.emplace_back(all.data() + static_cast<std::size_t>(rank) * MPI_MAX_PROCESSOR_NAME);
  }
  return info;
}

}  // namespace haloflag::model::calibration
