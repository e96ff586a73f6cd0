// How many CPU cores the calling thread may run on (its affinity mask), which decides whether
// an Exchange's progress thread gets a core of its own or shares the caller's.
#pragma once

namespace haloflag::halo::detail {

// The cores in the calling thread's affinity mask; 0 where the platform cannot say.
int cores_of_this_thread();

}  // namespace haloflag::halo::detail
