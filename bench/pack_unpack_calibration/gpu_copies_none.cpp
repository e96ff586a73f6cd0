// Host-only builds: there is no GPU to copy on; the calibration times a memcpy instead
// (copy_rates.cpp) and never makes a GpuCopies.
#include <stdexcept>

#include "gpu_copies.hpp"

namespace haloflag::bench {

struct GpuCopies::State {};

GpuCopies::GpuCopies(std::int64_t) {
  throw std::logic_error("GpuCopies: this build has no GPU backend");
}
GpuCopies::~GpuCopies() = default;
bool GpuCopies::has_peer() const { return false; }
const std::string& GpuCopies::peer() const {
  static const std::string none = "no peer GPU: no GPU backend";
  return none;
}
double GpuCopies::device_copy_s() { return 0.0; }
double GpuCopies::peer_copy_s() { return 0.0; }

}  // namespace haloflag::bench
