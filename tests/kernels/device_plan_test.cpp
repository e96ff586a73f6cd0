// The opaque handle of the embedded API: its counts come from the internal plan, with_fields()
// swaps the fields a kernel packs and unpacks without touching anything else, and kernels can
// take it by value.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_plan.hpp"

namespace haloflag::kernels {
namespace {

static_assert(std::is_trivially_copyable_v<DevicePlan>, "kernels take the handle by value");

std::byte* bytes_of(std::array<double, 8>& values) {
  return reinterpret_cast<std::byte*>(values.data());
}

// Two variables' worth of distinct addresses, so FieldSets can be told apart.
struct FieldStorage {
  std::array<double, 8> first{};
  std::array<double, 8> second{};
  FieldSet view() { return make_field_set({dense(first.data(), 8, 1), dense(second.data(), 8, 1)}); }
};

ExchangePlan plan_with(std::uint32_t sends, std::uint32_t recvs, const FieldSet& fields) {
  ExchangePlan plan;
  plan.send_count = sends;
  plan.recv_count = recvs;
  plan.fields = fields;
  return plan;
}

TEST(DevicePlan, CountsAndFieldsComeFromThePlan) {
  FieldStorage storage;
  const DevicePlan handle = detail::make_device_plan(
      plan_with(26, 18, storage.view()), kUnregisteredFields, nullptr);
  EXPECT_EQ(handle.send_count(), 26u);
  EXPECT_EQ(handle.recv_count(), 18u);
  EXPECT_EQ(handle.fields().variable_count, 2);
  EXPECT_EQ(handle.fields().variables[0].base, bytes_of(storage.first));
  EXPECT_EQ(handle.fields().variables[1].base, bytes_of(storage.second));
}

TEST(DevicePlan, WithFieldsReplacesTheFieldsAndKeepsTheCounts) {
  FieldStorage even;
  FieldStorage odd;
  const DevicePlan handle = detail::make_device_plan(
      plan_with(6, 5, even.view()), kUnregisteredFields, nullptr);
  const DevicePlan swapped = handle.with_fields(odd.view());

  EXPECT_EQ(swapped.fields().variables[0].base, bytes_of(odd.first));
  EXPECT_EQ(swapped.fields().variables[1].base, bytes_of(odd.second));
  EXPECT_EQ(swapped.send_count(), 6u);
  EXPECT_EQ(swapped.recv_count(), 5u);
  // What the pack and unpack programs read (fields_of) is the new FieldSet too.
  EXPECT_EQ(fields_of(detail::plan_of(swapped)).variables[0].base, bytes_of(odd.first));
  // The original handle is a value: unchanged.
  EXPECT_EQ(handle.fields().variables[0].base, bytes_of(even.first));
}

TEST(DevicePlan, DropsTheFieldBankSoItsOwnFieldsArePacked) {
  // An Exchange's plan selects per-exchange fields through a bank (start(fields)); a handle
  // must not, or with_fields() would be ignored by fields_of().
  FieldStorage given;
  FieldStorage banked;
  const std::array<FieldSet, 1> bank{banked.view()};
  const std::uint32_t slot = 0;
  ExchangePlan plan = plan_with(1, 1, given.view());
  plan.field_bank = bank.data();
  plan.field_slot = &slot;
  ASSERT_EQ(fields_of(plan).variables[0].base, bytes_of(banked.first));

  const DevicePlan handle = detail::make_device_plan(plan, kUnregisteredFields, nullptr);
  EXPECT_EQ(detail::plan_of(handle).field_bank, nullptr);
  EXPECT_EQ(detail::plan_of(handle).field_slot, nullptr);
  EXPECT_EQ(fields_of(detail::plan_of(handle)).variables[0].base, bytes_of(given.first));
}

TEST(DevicePlan, DefaultHandleHasNoMessages) {
  const DevicePlan handle;
  EXPECT_EQ(handle.send_count(), 0u);
  EXPECT_EQ(handle.recv_count(), 0u);
}

}  // namespace
}  // namespace haloflag::kernels
