// Destroys a program's variants of one kind before the others, whatever their order in the
// vector: a stencil example's stream variant keeps its exchange's kernels resident between runs,
// and freeing another variant's device memory synchronizes the device, which would wait for those
// kernels until their deadline (docs/embedding.md). Declare it after the vector, so that it runs
// before the vector's own destructor.
#pragma once

#include <memory>
#include <vector>

namespace haloflag::examples {

template <class Variant, auto kFirst>
class ReleaseFirst {
 public:
  explicit ReleaseFirst(std::vector<std::unique_ptr<Variant>>& variants) : variants_(variants) {}
  ReleaseFirst(const ReleaseFirst&) = delete;
  ReleaseFirst& operator=(const ReleaseFirst&) = delete;
  ~ReleaseFirst() {
    for (auto& variant : variants_) {
      if (variant && variant->kind() == kFirst) variant.reset();
    }
    variants_.clear();
  }

 private:
  std::vector<std::unique_ptr<Variant>>& variants_;
};

}  // namespace haloflag::examples
