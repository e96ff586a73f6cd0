#include "run_info.hpp"

#include <ctime>
#include <vector>

#include "mpi_call.hpp"

namespace haloflag::model::calibration {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

RunInfo collect_run_info(MPI_Comm comm, const std::string& tool) {
  RunInfo info;
  info.tool = tool;
  info.date = utc_now_iso8601();
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
