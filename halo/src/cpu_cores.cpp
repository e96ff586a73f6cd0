#include "cpu_cores.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace haloflag::halo::detail {

int cores_of_this_thread() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return CPU_COUNT(&set);
#else
  return 0;
#endif
}

}  // namespace haloflag::halo::detail
