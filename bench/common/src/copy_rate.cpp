// measure_copy_rate: the host's copy here, the GPU's in copy_rate.cu (GPU builds only).
#include "haloflag/bench/copy_rate.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/notify/errors.hpp"

namespace haloflag::bench {

namespace detail {
// copy_rate.cu: the median of `repeats` timed device-to-device copies on the current GPU.
double gpu_copy_seconds(std::int64_t bytes, int repeats);
}  // namespace detail

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double host_copy_seconds(std::int64_t bytes, int repeats) {
  const auto size = static_cast<std::size_t>(bytes);
  // Value-initialised, so that every page is touched before the first timed copy.
  const auto from = std::make_unique<std::byte[]>(size);
  const auto to = std::make_unique<std::byte[]>(size);
  std::memcpy(to.get(), from.get(), size);  // warm-up
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(repeats));
  for (int r = 0; r < repeats; ++r) {
    const auto begin = std::chrono::steady_clock::now();
    std::memcpy(to.get(), from.get(), size);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
                          .count());
    // Keeps the copy: the destination is read after it, so it cannot be left out.
    from[static_cast<std::size_t>(r) % size] = to[(static_cast<std::size_t>(r) * 7) % size];
  }
  return median(std::move(seconds));
}

}  // namespace

CopyRate measure_copy_rate(haloflag::notify::Backend backend, std::int64_t bytes, int repeats) {
  if (bytes < 1) {
    throw std::invalid_argument("measure_copy_rate: bytes must be at least 1, got " +
                                std::to_string(bytes));
  }
  if (repeats < 1) {
    throw std::invalid_argument("measure_copy_rate: repeats must be at least 1, got " +
                                std::to_string(repeats));
  }
  CopyRate rate;
  rate.bytes = bytes;
  if (backend == haloflag::notify::Backend::host) {
    rate.seconds = host_copy_seconds(bytes, repeats);
  } else {
#if defined(HALOFLAG_HAVE_GPU)
    rate.seconds = detail::gpu_copy_seconds(bytes, repeats);
#else
    throw haloflag::notify::NotifyError(
        "measure_copy_rate: backend " + std::string(haloflag::notify::to_string(backend)) +
        " is not in this build (HALOFLAG_GPU=none)");
#endif
  }
  // A copy too short for the clock counts as one tick of it rather than as infinitely fast.
  const double seconds = std::max(rate.seconds, 1e-9);
  rate.bytes_per_second = 2.0 * static_cast<double>(bytes) / seconds;
  return rate;
}

}  // namespace haloflag::bench
