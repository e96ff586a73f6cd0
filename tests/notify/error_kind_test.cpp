// to_string(ErrorKind) returns each kind's name exactly as its enumerator is spelled, as
// haloflag/error.hpp promises: a kind printed in a message or a report reads as the code that
// tests it.
#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>
#include <string_view>
#include <utility>

#include "haloflag/error.hpp"

namespace {

using haloflag::ErrorKind;

// Every enumerator with its spelling. `other` is the last: a kind added after it fails the
// static_assert below until it is listed here too.
constexpr std::pair<ErrorKind, std::string_view> kEveryKind[] = {
    {ErrorKind::config, "config"},
    {ErrorKind::geometry, "geometry"},
    {ErrorKind::co_residency, "co_residency"},
    {ErrorKind::peer, "peer"},
    {ErrorKind::timeout, "timeout"},
    {ErrorKind::mpi, "mpi"},
    {ErrorKind::gpu, "gpu"},
    {ErrorKind::usage, "usage"},
    {ErrorKind::other, "other"},
};
static_assert(std::size(kEveryKind) == static_cast<std::size_t>(ErrorKind::other) + 1,
              "list every ErrorKind in kEveryKind");

}  // namespace

TEST(ErrorKind, EachNameIsItsEnumerator) {
  for (std::size_t index = 0; index < std::size(kEveryKind); ++index) {
    const auto& [kind, name] = kEveryKind[index];
    EXPECT_EQ(static_cast<std::size_t>(kind), index) << name << " is listed out of order";
    EXPECT_EQ(haloflag::to_string(kind), name);
  }
}

TEST(ErrorKind, AnErrorKeepsItsKind) {
  const haloflag::Error error(ErrorKind::co_residency, "grid too large");
  EXPECT_EQ(haloflag::to_string(error.kind()), "co_residency");
  EXPECT_EQ(haloflag::kind_of(error), ErrorKind::co_residency);
}
