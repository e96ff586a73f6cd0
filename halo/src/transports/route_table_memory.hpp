// Internal: one allocation of device-readable memory for a transport's route table and the
// arrays it points to (the node and self transports' device halves). The offsets are laid out
// first, then the memory is allocated and each array copied to its offset.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"

namespace haloflag::halo::detail {

class RouteTableLayout {
 public:
  // Every array starts on a multiple of `alignment` bytes.
  explicit RouteTableLayout(std::size_t alignment) : alignment_(alignment) {}
  // The offset of `size` more bytes.
  std::size_t place(std::size_t size) {
    const std::size_t at = (bytes_ + alignment_ - 1) / alignment_ * alignment_;
    bytes_ = at + size;
    return at;
  }
  // What to allocate (at least a byte).
  std::size_t bytes() const { return std::max<std::size_t>(bytes_, 1); }

 private:
  std::size_t alignment_;
  std::size_t bytes_ = 0;
};

// Copies `items` to offset `at` of `memory`; their address there.
template <class Item>
const Item* upload_at(kernels::DeviceMemory& memory, const std::vector<Item>& items,
                      std::size_t at) {
  memory.copy_from_host(items.data(), sizeof(Item) * items.size(), at);
  return reinterpret_cast<const Item*>(static_cast<std::byte*>(memory.data()) + at);
}

}  // namespace haloflag::halo::detail
