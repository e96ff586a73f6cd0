/// @file
/// An owning array of epoch flags in mapped memory, one per 128-byte line, with one writer side.
///
/// Host code uses signal/test/wait here; kernels (or host-team threads) get device_view() and
/// use signal_flag/poll_flag/wait_flag from flag_ops.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace haloflag::notify {

/// Which side writes the flags; the other side only reads them (rule 1).
enum class FlagWriter { device, host };

/// A named array of flags in mapped memory, registered with a ControlBlock.
class FlagArray {
 public:
  /// `control` names the array in failure reports and supplies the deadline of host waits.
  FlagArray(ControlBlock& control, std::uint32_t count, FlagWriter writer, std::string name);

  /// Number of flags.
  std::uint32_t size() const { return view_.count; }
  /// Who signals these flags.
  FlagWriter writer() const { return writer_; }
  /// The name the array was registered under.
  const std::string& name() const { return control_->array_name(view_.array_id); }

  /// View for kernels.
  FlagArrayView device_view() const;
  /// View for host code.
  FlagArrayView host_view() const { return view_; }

  /// Host-side signal; only for host-written arrays. Throws if `epoch` is lower than what the
  /// flag already holds (epochs are monotonic, never reset).
  void signal(std::uint32_t index, std::uint64_t epoch);
  /// True once flag >= epoch (then the device's payload is visible to this thread).
  bool test(std::uint32_t index, std::uint64_t epoch) const;
  /// Blocks until flag >= epoch; throws FlagWaitError on deadline or abort. `waiter` is an id
  /// of the caller's choosing that the failure record keeps.
  void wait(std::uint32_t index, std::uint64_t epoch, std::uint32_t waiter = 0) const;
  /// The value now held, for diagnostics.
  std::uint64_t value(std::uint32_t index) const;

 private:
  void check_index(std::uint32_t index, const char* operation) const;

  ControlBlock* control_;
  FlagWriter writer_;
  MappedAllocation memory_;
  FlagArrayView view_;
};

}  // namespace haloflag::notify
