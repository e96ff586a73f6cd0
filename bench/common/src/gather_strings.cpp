#include "haloflag/bench/gather_strings.hpp"

namespace haloflag::bench {

std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& text, int root) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank == root ? static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm);

  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::vector<char> all(static_cast<std::size_t>(total));
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              root, comm);

  std::vector<std::string> texts;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    texts.emplace_back(all.data() + offsets[r], static_cast<std::size_t>(lengths[r]));
  }
  return texts;
}

}  // namespace haloflag::bench
