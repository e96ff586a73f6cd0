#include "message_check.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/pack_unpack.hpp"

namespace haloflag::bench {

void fill_distinct(halo::HostField& field) {
  for (int v = 0; v < field.vars(); ++v) {
    double* values = field.variable(v);
    const double base = static_cast<double>(v) * static_cast<double>(field.cells());
    for (std::int64_t i = 0; i < field.cells(); ++i) values[i] = base + static_cast<double>(i) + 1.0;
  }
}

void fill_message(std::byte* buffer, std::size_t bytes, int salt) {
  const std::size_t count = bytes / sizeof(double);
  for (std::size_t i = 0; i < count; ++i) {
    const double value = -(static_cast<double>(salt) * 1e12 + static_cast<double>(i) + 1.0);
    std::memcpy(buffer + i * sizeof value, &value, sizeof value);
  }
}

void check_message(const kernels::MessageLayout& layout, const halo::HostField& field,
                   const std::byte* buffer, const std::string& what) {
  // Only read by packing.
  const kernels::FieldSet host_fields = const_cast<halo::HostField&>(field).view();
  const auto count = static_cast<std::size_t>(layout.element_count());
  std::vector<double> expected(count);
  kernels::MessageLayout at_start = layout;
  at_start.place_at(0);
  kernels::pack_message(at_start, host_fields, reinterpret_cast<std::byte*>(expected.data()), 0, 1);
  for (std::size_t i = 0; i < count; ++i) {
    double actual = 0.0;
    std::memcpy(&actual, buffer + i * sizeof actual, sizeof actual);
    if (actual != expected[i]) {
      throw std::runtime_error(what + ": element " + std::to_string(i) + " of " +
                               std::to_string(count) + " is " + std::to_string(actual) +
                               ", expected " + std::to_string(expected[i]));
    }
  }
}

}  // namespace haloflag::bench
