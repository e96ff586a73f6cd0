// The host backend's accessor: CPU threads run the access program in place of a GPU, one thread
// for the stream form and a team with a barrier for the stacked form. Not GPU results.
#include <atomic>
#include <barrier>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "haloflag/notify/errors.hpp"
#include "memory_accessor.hpp"

namespace haloflag::bench::interference {

namespace {

// One stand-in thread as a member of its team (the Group of access_program.hpp).
struct HostTeamMember {
  int index = 0;
  int count = 1;
  std::barrier<>* barrier = nullptr;
  int* slot = nullptr;  // the leader's verdict, read by all between two barriers

  int thread() const { return index; }
  int size() const { return count; }
  void sync() const { barrier->arrive_and_wait(); }
  int from_leader(int value) const {
    if (index == 0) *slot = value;
    barrier->arrive_and_wait();
    const int result = *slot;
    barrier->arrive_and_wait();  // nobody writes the slot again before everyone has read it
    // Many ranks and stand-ins may share few cores (docs/design.md, rule 7).
    std::this_thread::yield();
    return result;
  }
};

AccessShape host_shape(int threads) {
  AccessShape shape;
  shape.threads = threads;
  shape.description = threads == 1 ? "1 CPU thread" : std::to_string(threads) + " CPU threads with a barrier";
  return shape;
}

class HostMemoryAccessor final : public MemoryAccessor {
 public:
  explicit HostMemoryAccessor(const AccessorSettings& settings)
      : stream_(host_shape(1)), stacked_(host_shape(settings.host_threads)) {}
  ~HostMemoryAccessor() override { join(); }

  std::string describe() const override {
    return "CPU threads standing in for the GPU (host backend: not GPU results)";
  }
  std::optional<GpuFacts> gpu_facts() const override { return std::nullopt; }
  const AccessShape& shape(AccessForm form) const override {
    return form == AccessForm::stream ? stream_ : stacked_;
  }

  void start(AccessForm form, const AccessPlan& plan) override {
    join();
    const int count = shape(form).threads;
    barrier_ = std::make_unique<std::barrier<>>(count);
    finished_.store(0);
    for (int index = 0; index < count; ++index) {
      team_.emplace_back([this, plan, member = HostTeamMember{index, count, barrier_.get(), &slot_}] {
        access_buffers(member, plan);
        finished_.fetch_add(1, std::memory_order_release);
      });
    }
  }

  void finish(std::chrono::nanoseconds deadline) override {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    const int count = static_cast<int>(team_.size());
    while (finished_.load(std::memory_order_acquire) < count) {
      if (std::chrono::steady_clock::now() > give_up) {
        throw notify::NotifyError("the stand-in threads did not finish their round within " +
                                  std::to_string(std::chrono::duration<double>(deadline).count()) +
                                  " s");
      }
      std::this_thread::yield();
    }
    join();
  }

 private:
  void join() {
    for (std::thread& thread : team_) thread.join();
    team_.clear();
  }

  AccessShape stream_;
  AccessShape stacked_;
  std::vector<std::thread> team_;
  std::unique_ptr<std::barrier<>> barrier_;
  int slot_ = 0;
  std::atomic<int> finished_{0};
};

}  // namespace

std::unique_ptr<MemoryAccessor> make_host_accessor(const AccessorSettings& settings) {
  return std::make_unique<HostMemoryAccessor>(settings);
}

}  // namespace haloflag::bench::interference
