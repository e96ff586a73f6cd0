// What halo_bench verifies and times: a halo::Exchange, or the plain NCCL program that stands
// beside the nccl strategy (plain_nccl.hpp). One exchange per run(), epochs counted from 1.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/halo/exchange.hpp"

namespace haloflag::bench {

class TimedExchange {
 public:
  virtual ~TimedExchange() = default;
  // The last exchange run (0 before the first).
  virtual std::uint64_t epoch() const = 0;
  // One whole exchange: started and finished.
  virtual void run() = 0;
  // For messages: the strategy's name, or the program's.
  virtual std::string name() const = 0;
  // Times resident kernels were launched again after leaving the GPU idle (0: none do).
  virtual std::uint64_t relaunches() const { return 0; }
};

// A halo::Exchange as a TimedExchange; it must outlive this.
class TimedHaloExchange final : public TimedExchange {
 public:
  explicit TimedHaloExchange(halo::Exchange& exchange) : exchange_(exchange) {}
  std::uint64_t epoch() const override { return exchange_.epoch(); }
  void run() override { exchange_.run(); }
  std::string name() const override { return std::string(halo::to_string(exchange_.strategy())); }
  std::uint64_t relaunches() const override { return exchange_.relaunches(); }

 private:
  halo::Exchange& exchange_;
};

}  // namespace haloflag::bench
