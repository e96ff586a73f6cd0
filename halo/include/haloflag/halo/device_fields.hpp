/// @file
/// A rank's fields in the backend's device memory, one dense array per variable, with copies to
/// and from a HostField: what benchmarks and tests hand to an Exchange. Elements are doubles, or
/// of another size (element_bytes), filled and checked through the verifier's encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo {

/// A rank's field variables in device memory of a backend, one allocation per variable.
class DeviceFields {
 public:
  /// Throws ConfigError when vars exceeds kernels::kMaxVariables or element_bytes is outside
  /// 1..16, and before allocating when the memory is not there.
  DeviceFields(notify::Backend backend, const Index3& extent, int vars, int element_bytes = 8);

  /// Cells per axis, ghosts included.
  const Index3& extent() const { return extent_; }
  /// Number of variables.
  int vars() const { return static_cast<int>(variables_.size()); }
  /// Bytes per element of each variable.
  int element_bytes() const { return element_bytes_; }
  kernels::FieldSet view() const;  ///< device addresses, for Exchange and kernels

  /// Doubles only (element_bytes 8); sizes must match.
  void upload(const HostField& field);
  /// Copies the variables into `field` (doubles only; sizes must match).
  void download(HostField& field) const;

  /// Any element size: fill (whole) or refresh the field for exchange `epoch` as the verifier
  /// encodes it, and upload; download and check it after the exchange ("" when right).
  void upload_encoded(const ExchangeVerifier& verifier, std::uint64_t epoch, bool whole);
  /// Downloads the field and checks it after exchange `epoch`: "" when right, else the problem.
  std::string check_encoded(const ExchangeVerifier& verifier, std::uint64_t epoch);

 private:
  void check_shape(const HostField& field) const;
  kernels::FieldSet mirror_view();  ///< the host mirror, allocated on first use

  Index3 extent_;
  int element_bytes_ = 8;
  std::vector<kernels::DeviceMemory> variables_;
  std::vector<std::vector<std::byte>> mirror_;
};

}  // namespace haloflag::halo
