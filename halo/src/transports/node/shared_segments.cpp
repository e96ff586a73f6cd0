#include "transports/node/shared_segments.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "deadline_collectives.hpp"
#include "haloflag/halo/errors.hpp"

namespace haloflag::halo::detail {
namespace {

struct SegmentName {
  std::array<char, 64> text{};
  std::uint64_t bytes = 0;
  std::int32_t created = 0;  // 0: this rank could not create its segment
  std::int32_t unused = 0;
};

// Unique per process and segment: the pid and a counter.
SegmentName new_name(std::size_t bytes) {
  static std::atomic<unsigned> counter{0};
  SegmentName name;
  std::snprintf(name.text.data(), name.text.size(), "/haloflag-%ld-%u",
                static_cast<long>(getpid()), counter.fetch_add(1));
  name.bytes = bytes;
  return name;
}

std::byte* map(int descriptor, std::size_t bytes) {
  void* address = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
  return address == MAP_FAILED ? nullptr : static_cast<std::byte*>(address);
}

}  // namespace

SharedSegments::SharedSegments(MPI_Comm node_comm, std::size_t bytes,
                               std::chrono::nanoseconds timeout) {
  int me = 0;
  MPI_Comm_rank(node_comm, &me);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t rounded = std::max<std::size_t>((bytes + page - 1) / page * page, page);

  SegmentName mine = new_name(rounded);
  std::string failure;
  const int own = shm_open(mine.text.data(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (own < 0 || ftruncate(own, static_cast<off_t>(rounded)) != 0) {
    failure = std::string("creating shared memory ") + mine.text.data() + " failed: " +
              std::strerror(errno);
  } else {
    mine.created = 1;
  }
  if (own >= 0) close(own);

  // Every rank maps every segment, then the names go: from then on nothing can open them, and
  // the memory lives exactly as long as its mappings.
  const std::vector<SegmentName> names =
      all_gather(mine, node_comm, timeout, "exchanging shared-memory names");
  mapped_.assign(names.size(), nullptr);
  sizes_.assign(names.size(), 0);
  for (std::size_t q = 0; q < names.size() && failure.empty(); ++q) {
    if (!names[q].created) {
      failure = "node rank " + std::to_string(q) + " has no shared-memory segment";
      break;
    }
    const int descriptor = shm_open(names[q].text.data(), O_RDWR, 0);
    if (descriptor >= 0) {
      mapped_[q] = map(descriptor, names[q].bytes);
      close(descriptor);
    }
    if (mapped_[q] == nullptr) {
      failure = std::string("mapping the shared memory of node rank ") + std::to_string(q) +
                " (" + names[q].text.data() + ") failed: " + std::strerror(errno);
      break;
    }
    sizes_[q] = names[q].bytes;
  }
  barrier_with_deadline(node_comm, timeout, "mapping the node's shared memory");
  if (mine.created) shm_unlink(mine.text.data());
  if (!failure.empty()) {
    for (std::size_t q = 0; q < mapped_.size(); ++q) {
      if (mapped_[q] != nullptr) munmap(mapped_[q], sizes_[q]);
    }
    mapped_.clear();
    throw ExchangeError(ErrorKind::other, "node transport: " + failure);
  }
}

SharedSegments::~SharedSegments() {
  for (std::size_t q = 0; q < mapped_.size(); ++q) {
    if (mapped_[q] != nullptr) munmap(mapped_[q], sizes_[q]);
  }
}

}  // namespace haloflag::halo::detail
