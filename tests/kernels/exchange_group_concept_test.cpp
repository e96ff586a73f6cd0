// The group contract of the exchange's device functions (block_waits.hpp) is a concept the
// compiler checks: the library's host groups satisfy it, and a type missing a member does not,
// so passing one to embedded_pack/embedded_unpack fails to compile at the call, naming it.
#include <gtest/gtest.h>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/host_groups.hpp"

namespace haloflag::kernels {
namespace {

struct NoBroadcast {  // a block without from_leader
  int thread() const { return 0; }
  int size() const { return 1; }
  void sync() const {}
};

static_assert(ExchangeGroup<HostThreadGroup>);
static_assert(ExchangeGroup<HostTeamGroup>);
static_assert(!ExchangeGroup<NoBroadcast>);
static_assert(!ExchangeGroup<int>);

TEST(ExchangeGroupConcept, HostGroupsSatisfyItAndIncompleteTypesDoNot) {
  EXPECT_TRUE(ExchangeGroup<HostThreadGroup>);
  EXPECT_TRUE(ExchangeGroup<HostTeamGroup>);
  EXPECT_FALSE(ExchangeGroup<NoBroadcast>);
}

}  // namespace
}  // namespace haloflag::kernels
