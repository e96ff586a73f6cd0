// A rank's fields in the backend's device memory, with copies to and from a HostField: what
// benchmarks and tests hand to an Exchange.
#pragma once

#include <vector>

#include "haloflag/halo/host_field.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo {

class DeviceFields {
 public:
  // Throws ConfigError when vars exceeds kernels::kMaxVariables.
  DeviceFields(notify::Backend backend, const Index3& extent, int vars);

  const Index3& extent() const { return extent_; }
  int vars() const { return static_cast<int>(variables_.size()); }
  kernels::FieldSet view() const;  // device addresses, for Exchange and kernels

  void upload(const HostField& field);        // sizes must match
  void download(HostField& field) const;

 private:
  void check_shape(const HostField& field) const;

  Index3 extent_;
  std::vector<kernels::DeviceMemory> variables_;
};

}  // namespace haloflag::halo
