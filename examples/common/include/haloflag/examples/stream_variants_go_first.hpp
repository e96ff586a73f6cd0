// Destroys a program's variants with the stream variant first, whatever their order in the
// vector: the stream variant keeps its exchange's kernels resident between runs, and freeing
// another variant's device memory synchronizes the device, which would wait for those kernels
// until their deadline (docs/embedding.md). Declare it after the vector, so that it runs before
// the vector's own destructor. `Variant` is an example's StencilVariant (its Kind has `stream`).
#pragma once

#include <memory>
#include <vector>

namespace haloflag::examples {

template <class Variant>
class StreamVariantsGoFirst {
 public:
  explicit StreamVariantsGoFirst(std::vector<std::unique_ptr<Variant>>& variants)
      : variants_(variants) {}
  StreamVariantsGoFirst(const StreamVariantsGoFirst&) = delete;
  StreamVariantsGoFirst& operator=(const StreamVariantsGoFirst&) = delete;
  ~StreamVariantsGoFirst() {
    for (auto& variant : variants_) {
      if (variant && variant->kind() == Variant::Kind::stream) variant.reset();
    }
    variants_.clear();
  }

 private:
  std::vector<std::unique_ptr<Variant>>& variants_;
};

}  // namespace haloflag::examples
