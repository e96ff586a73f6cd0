#include "haloflag/examples/agreed_piece_bytes.hpp"

#include <cstdint>
#include <vector>

#include "haloflag/examples/resident_piece_size.hpp"

namespace haloflag::examples {

int agreed_piece_bytes(MPI_Comm comm, const halo::Geometry& geometry, int rank, int blocks,
                       int smallest_bytes, int default_bytes) {
  std::vector<std::int64_t> message_bytes;
  for (const auto& n : geometry.neighbours(rank)) message_bytes.push_back(n.bytes);
  const int mine =
      blocks > 0 ? updating_piece_bytes(message_bytes, blocks, default_bytes, smallest_bytes)
                 : default_bytes;
  int agreed = mine;
  MPI_Allreduce(&mine, &agreed, 1, MPI_INT, MPI_MAX, comm);
  return agreed;
}

}  // namespace haloflag::examples
