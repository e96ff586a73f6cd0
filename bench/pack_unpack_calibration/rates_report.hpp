// The fused kernels' rates beside the copy engine's (copy_rates.hpp), as the calibration prints
// them and as its raw file keeps them: GB/s = one rank's halo bytes over the slowest rank's
// median time, so that all four compare the same bytes timed the same way.
#pragma once

#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "copy_rates.hpp"
#include "halo_set_measurement.hpp"

namespace haloflag::bench {

// One row per cube: the fused pack and unpack with the buffer in device memory and pinned, the
// copy within the GPU and the copy to its peer ("no peer GPU" when there is none).
void print_rates(std::FILE* out, const std::vector<TimedHaloSet>& sets, const CopyRates& copies);

// The same with the medians behind each rate and every run of the copies.
nlohmann::ordered_json rates_json(const std::vector<TimedHaloSet>& sets, const CopyRates& copies);

}  // namespace haloflag::bench
