// The host backend's device side: each program runs on its own CPU thread, started by start()
// and joined by finish(). Nothing here is a GPU, and describe() says so.
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>

#include "device_side.hpp"

namespace haloflag::bench {

namespace {

class HostDeviceSide final : public DeviceSide {
 public:
  ~HostDeviceSide() override {
    // The program's waits end by deadline or abort, so joining cannot hang.
    if (thread_.joinable()) thread_.join();
  }

  std::string describe() const override {
    return "a CPU thread standing in for the GPU (host backend: not GPU results)";
  }
  std::optional<GpuFacts> gpu_facts() const override { return std::nullopt; }
  std::string clock_name() const override { return kHostClockName; }

  void start(const ResponderPlan& plan) override {
    launch([plan] { answer_epochs(plan); });
  }
  void start(const ReadWritePlan& plan) override {
    launch([plan] { time_read_write(plan); });
  }
  void start(const ClockStepPlan& plan) override {
    launch([plan] { measure_clock_step(plan); });
  }
  void finish() override {
    if (thread_.joinable()) thread_.join();
  }

  std::optional<std::string> launch_unavailable_reason() const override {
    return "host backend: there is no kernel launch to time";
  }
  std::vector<double> time_empty_kernel_launches(std::uint32_t) override {
    throw std::logic_error("kernel launches timed on the host backend");
  }
  std::vector<double> time_graph_launches(std::uint32_t) override {
    throw std::logic_error("graph launches timed on the host backend");
  }

 private:
  template <class Program>
  void launch(Program program) {
    if (thread_.joinable())
      throw std::logic_error("a device program started before the last finished");
    thread_ = std::thread(std::move(program));
  }

  std::thread thread_;
};

}  // namespace

std::unique_ptr<DeviceSide> make_host_device_side() { return std::make_unique<HostDeviceSide>(); }

}  // namespace haloflag::bench
