/// @file
/// The handle a kernel of the caller's takes to pack and unpack an Exchange's messages itself
/// (halo::Exchange::device_plan(), the functions of embedded_api.hpp; docs/embedding.md).
///
/// It is opaque on purpose: behind it are the message layouts, buffers, flags, deadline and abort
/// flag of the exchange, whose form changes between versions; user code sees only the message
/// counts and the fields. It points into the Exchange's memory, so it is valid while the Exchange
/// lives (and the kernel using it must have ended before the Exchange is destroyed). Its
/// addresses are device addresses on the GPU backends and host addresses on the host backend.
/// Trivially copyable: pass it to the kernel by value, and copy it freely there.
#pragma once

#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

class DevicePlan;

namespace detail {
/// The plan behind the handle, for the embedded API; not for user code.
HF_HD inline const ExchangePlan& plan_of(const DevicePlan& handle);
/// The handle over `plan`, for the Exchange. The handle's fields are the ones packed and
/// unpacked, so the per-exchange field bank of start(fields) is dropped.
inline DevicePlan make_device_plan(const ExchangePlan& plan, std::uint32_t slot,
                                   const FieldSet* fields);
}  // namespace detail

/// A rank's exchange plan as the embedded API's device functions use it.
class DevicePlan {
 public:
  /// A handle without messages: only something to assign a real one to.
  DevicePlan() = default;

  /// This rank's messages: sends 0 .. send_count()-1 and receives 0 .. recv_count()-1, in the
  /// order of halo::Exchange::messages().sends and .recvs.
  HF_HD std::uint32_t send_count() const { return plan_.send_count; }
  /// Number of receives.
  HF_HD std::uint32_t recv_count() const { return plan_.recv_count; }

  /// The fields embedded_pack packs from and embedded_unpack unpacks into: at first the FieldSet
  /// the Exchange was built with.
  HF_HD const FieldSet& fields() const { return plan_.fields; }

  /// A copy that packs from and unpacks into `other`, a FieldSet of the same extent and variable
  /// count (double buffering: a sweep exchanges the array it has just written), its node
  /// messages through this rank's buffers. This handle is unchanged. (halo::Exchange::
  /// device_plan(fields) gives one whose node senders place straight into the ghost cells.)
  HF_HD DevicePlan with_fields(const FieldSet& other) const {
    DevicePlan copy = *this;
    copy.plan_.fields = other;
    // fields_of() reads plan.fields only without a field bank.
    copy.plan_.field_bank = nullptr;
    copy.plan_.field_slot = nullptr;
    copy.plan_.fields_slot = kUnregisteredFields;
    return copy;
  }

 private:
  friend HF_HD const ExchangePlan& detail::plan_of(const DevicePlan& handle);
  friend DevicePlan detail::make_device_plan(const ExchangePlan& plan, std::uint32_t slot,
                                             const FieldSet* fields);

  ExchangePlan plan_{};
};

static_assert(std::is_trivially_copyable_v<DevicePlan>, "kernels take the handle by value");

namespace detail {

HF_HD inline const ExchangePlan& plan_of(const DevicePlan& handle) { return handle.plan_; }

/// `slot`: kUnregisteredFields sends the node messages through the buffers; the slot of a
/// FieldSet the node senders mapped, with `fields` that FieldSet, lets them place straight into
/// its ghost cells. `fields` null keeps the plan's.
inline DevicePlan make_device_plan(const ExchangePlan& plan, std::uint32_t slot,
                                   const FieldSet* fields) {
  DevicePlan handle;
  handle.plan_ = plan;
  handle.plan_.field_bank = nullptr;
  handle.plan_.field_slot = nullptr;
  handle.plan_.fields_slot = slot;
  // No stream waits on the caller's kernel's epochs (wait(stream) takes Strategy::resident's
  // own kernels): its blocks skip the count of done units and its release.
  handle.plan_.exchange_done = nullptr;
  if (fields != nullptr) handle.plan_.fields = *fields;
  return handle;
}

}  // namespace detail

}  // namespace haloflag::kernels
