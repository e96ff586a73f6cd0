#include "clock_probe.hpp"

#include "haloflag/notify/errors.hpp"

namespace haloflag::notify::detail {

void run_clock_probe(FlagArrayView, FlagArrayView, std::uint64_t*, std::uint32_t, WaitControl,
                     ClockProbe&) {
  throw NotifyError("this haloflag build has no GPU backend: no device clock to measure");
}

}  // namespace haloflag::notify::detail
