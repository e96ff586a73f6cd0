#include "haloflag/kernels/standalone_runner.hpp"

#include "haloflag/kernels/detail/exchange_plan.hpp"

namespace haloflag::kernels {

std::unique_ptr<KernelRunner> make_standalone_runner(notify::Backend backend,
                                                     const BufferedMessages& sends,
                                                     const BufferedMessages& recvs,
                                                     const FieldSet& fields,
                                                     const LaunchSettings& launch,
                                                     const MessageSignals& signals) {
  // The rest of the plan keeps its defaults: no routes or piece grid, no long-message ordering or
  // teams (every message counts as long, and a team of one packs it as a short one would be),
  // no stream ordering. The runner keeps its own copy of the plan.
  ExchangePlan plan{};
  plan.sends = sends.layouts;
  plan.recvs = recvs.layouts;
  plan.send_count = sends.count;
  plan.recv_count = recvs.count;
  plan.fields = fields;
  plan.send_buffer = sends.buffer;
  plan.recv_buffer = recvs.buffer;
  plan.send_ready = signals.send_ready;
  plan.unpack_ready = signals.unpack_ready;
  plan.unpack_done = signals.unpack_done;
  plan.pack_start = signals.pack_start;
  plan.control = signals.control;
  plan.times = signals.times;
  return make_kernel_runner(backend, plan, launch);
}

}  // namespace haloflag::kernels
