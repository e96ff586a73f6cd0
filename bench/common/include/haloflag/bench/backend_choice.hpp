// Which backend the run uses, and why: --backend auto takes the best one present.
#pragma once

#include <string>

#include "haloflag/notify/backend.hpp"

namespace haloflag::bench {

struct BackendChoice {
  notify::Backend backend = notify::Backend::host;
  std::string requested;  // auto, host, cuda or hip
  std::string reason;     // e.g. "auto: no GPU backend usable (not compiled in)"

  bool emulated() const { return backend == notify::Backend::host; }
  // "host (auto: ...)" plus, for host, the warning that these are not GPU results.
  std::string describe() const;
};

// Throws UsageError when a GPU backend is asked for that is not built or has no device.
BackendChoice choose_backend(const std::string& requested);

}  // namespace haloflag::bench
