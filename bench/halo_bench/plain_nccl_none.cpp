// Builds without NCCL (or RCCL): no plain program either. halo_bench runs it only beside the
// nccl strategy, which strategy_unavailable() leaves out of such a build first.
#include <stdexcept>

#include "plain_nccl.hpp"

namespace haloflag::bench {

std::unique_ptr<TimedExchange> make_plain_nccl(const BenchRunSettings&, halo::DeviceFields&) {
  throw std::runtime_error("the plain NCCL program is not in this build (no NCCL)");
}

std::string plain_nccl_description() { return "not in this build"; }

}  // namespace haloflag::bench
