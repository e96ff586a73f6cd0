// Links both public libraries and exercises one call of each: a host-side flag round and the
// geometry of the paper's 200^3 case seen from one rank.
#include <cstdio>

#include "haloflag/halo/geometry.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"

int main() {
  namespace hn = haloflag::notify;
  hn::ControlBlock control(hn::Backend::host);
  hn::FlagArray flags(control, 2, hn::FlagWriter::host, "unpack_ready");
  flags.signal(1, 3);
  if (!flags.test(1, 3)) return 1;
  std::printf("consumer: flag %s[1] holds epoch %llu\n", flags.name().c_str(),
              static_cast<unsigned long long>(flags.value(1)));

  haloflag::halo::GeometrySpec spec;
  spec.global_size = {200, 200, 200};
  spec.ranks = 64;
  spec.periodic = {true, true, true};
  spec.vars = 3;
  const haloflag::halo::Geometry geometry(spec);
  const auto neighbours = geometry.neighbours(0);
  std::printf("consumer: rank 0 of 200^3 over 64 ranks has %zu neighbours\n", neighbours.size());
  return neighbours.size() == 26 ? 0 : 1;
}
