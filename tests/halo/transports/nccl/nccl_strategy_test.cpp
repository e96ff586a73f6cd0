// The nccl strategy's order of work, with a recording kernel runner and transport in place of
// the GPU and NCCL (plain host logic, every build): nothing between the pack launch and the
// transfers' enqueue; the unpack right behind them; a completion poll that finds the stream
// done queries it and nothing else, while a busy stream's polls let the transport watch NCCL;
// a traced exchange stamps each step of the stream, an untraced one none; an unfinished
// exchange is abandoned at shut-down.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exchange_resources.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "message_names.hpp"
#include "strategies/exchange_strategy.hpp"
#include "timeline_recorder.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;
using Log = std::vector<std::string>;

class RecordingRunner final : public kernels::KernelRunner {
 public:
  explicit RecordingRunner(Log& log) : log_(log) {}
  void launch(KernelOp op, std::uint64_t) override {
    log_.push_back("launch " + std::string(kernels::to_string(op)));
  }
  void launch_resident(KernelOp op, std::uint64_t, std::uint64_t) override { launch(op, 0); }
  void launch_graph(KernelOp) override { log_.push_back("launch_graph"); }
  bool lane_idle(Lane) override {
    log_.push_back("lane_idle");
    return idle;
  }
  void synchronize(Lane) override { log_.push_back("synchronize"); }
  std::string launch_shape(KernelOp) const override { return "1 blocks x 32 threads"; }
  void check_co_residency(KernelOp) override {}
  void* gpu_stream(Lane) const override { return nullptr; }

  bool idle = false;

 private:
  Log& log_;
};

// Stands in for the nccl transport: a stream-ordered transport, every hook logged.
class RecordingTransport final : public HostTransport {
 public:
  RecordingTransport(Log& log, TimelineRecorder& timeline) : log_(log), timeline_(timeline) {}
  std::string_view name() const override { return "recording"; }
  DeviceWork device_work() const override { return DeviceWork::none; }
  bool carries_send(std::size_t) const override { return true; }
  bool carries_recv(std::size_t) const override { return true; }
  void start(std::uint64_t) override { log_.push_back("start"); }
  std::string pending(std::uint64_t) const override { return {}; }
  void abandon() noexcept override { log_.push_back("abandon"); }
  bool progress(std::uint64_t) override {
    log_.push_back("progress");
    return true;
  }
  bool receivers_ready(std::uint64_t) const override { return true; }
  void send_packed(std::uint64_t) override { log_.push_back("send_packed"); }
  bool delivered(std::uint64_t) override {
    log_.push_back("delivered");
    return true;
  }
  void stream_work_enqueued(std::uint64_t) override { log_.push_back("stream_work_enqueued"); }
  void unpacked(std::uint64_t) override {
    log_.push_back("unpacked");
    timeline_.stream_gpu_spans(1000, 2000, 3000);
  }

 private:
  Log& log_;
  TimelineRecorder& timeline_;
};

// One rank of a periodic 8^3 domain: its 26 messages to itself.
ExchangeConfig small_config() {
  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = 1;
  spec.periodic = {true, true, true};
  return make_exchange_config(Geometry(spec));
}

// One rank's strategy over the recording runner and transport.
class NcclStrategyOrder : public testing::Test {
 protected:
  void make(bool traced) {
    const MessageLayouts layouts = make_message_layouts(config_, 0);
    // The strategy reads nothing of the resources; the nccl strategy's own would want GPU memory.
    ExchangeOptions options;
    options.backend = notify::Backend::host;
    resources_ = std::make_unique<ExchangeResources>(layouts, fields_.view(), options);
    timeline_ = std::make_unique<TimelineRecorder>(messages(), traced);
    transports_.push_back(std::make_unique<RecordingTransport>(log_, *timeline_));
    strategy_ = make_nccl_strategy(
        StrategyContext{*resources_, runner_, *timeline_, transports_, names_});
  }

  const RankMessages& messages() const { return config_.rank_messages.at(0); }

  // Runs exchange `epoch` to its end with `busy_polls` polls of a busy stream first.
  void run(std::uint64_t epoch, int busy_polls) {
    timeline_->begin(epoch);
    strategy_->start(epoch, PackStart::by_strategy);
    runner_.idle = false;
    for (int i = 0; i < busy_polls; ++i) ASSERT_FALSE(strategy_->progress());
    runner_.idle = true;
    ASSERT_TRUE(strategy_->progress());
    timeline_->end(nullptr, notify::DeviceClockOffset{});
  }

  ExchangeConfig config_ = small_config();
  DeviceFields fields_{notify::Backend::host, config_.rank_messages.at(0).field_extent.value(),
                       config_.data.value().vars};
  Log log_;
  RecordingRunner runner_{log_};
  MessageNames names_{config_.rank_messages.at(0), true};
  std::unique_ptr<ExchangeResources> resources_;
  std::unique_ptr<TimelineRecorder> timeline_;
  HostTransports transports_;
  std::unique_ptr<ExchangeStrategy> strategy_;
};

TEST_F(NcclStrategyOrder, TheGroupFollowsThePackLaunchAndTheUnpackTheGroup) {
  make(false);
  timeline_->begin(1);
  strategy_->start(1, PackStart::by_strategy);
  EXPECT_EQ(log_, (Log{"start", "launch fused_pack", "send_packed", "delivered",
                       "launch fused_unpack", "stream_work_enqueued"}));
}

TEST_F(NcclStrategyOrder, APollThatFindsTheStreamDoneQueriesItAlone) {
  make(false);
  run(1, 2);
  const Log after_start(log_.begin() + 6, log_.end());
  EXPECT_EQ(after_start, (Log{"lane_idle", "progress", "lane_idle", "progress", "lane_idle",
                              "unpacked"}));
}

TEST_F(NcclStrategyOrder, ATracedExchangeStampsEachStepOfTheStream) {
  make(true);
  run(1, 1);
  const ExchangeTimeline& timeline = timeline_->last();
  const StreamTimeline& stream = timeline.stream;
  ASSERT_NE(stream.pack_launched, kNotRecorded);
  EXPECT_LE(stream.pack_launched, stream.transfers_enqueued);
  EXPECT_LE(stream.transfers_enqueued, stream.unpack_launched);
  EXPECT_LE(stream.unpack_launched, stream.done_seen);
  EXPECT_LE(stream.done_seen, timeline.duration_ns);
  EXPECT_EQ(stream.gpu_pack_ns, 1000);
  EXPECT_EQ(stream.gpu_transfers_ns, 2000);
  EXPECT_EQ(stream.gpu_unpack_ns, 3000);
  ASSERT_FALSE(timeline.sends.empty());
  for (const SendTimeline& send : timeline.sends) {
    EXPECT_EQ(send.posted, stream.transfers_enqueued);
    EXPECT_EQ(send.ready_seen, kNotRecorded);
  }
  for (const RecvTimeline& recv : timeline.recvs) {
    EXPECT_EQ(recv.received, stream.done_seen);
    EXPECT_EQ(recv.done_seen, stream.done_seen);
  }
  // The next exchange starts from a clean record.
  timeline_->begin(2);
  strategy_->start(2, PackStart::by_strategy);
  runner_.idle = true;
  ASSERT_TRUE(strategy_->progress());
  timeline_->end(nullptr, notify::DeviceClockOffset{});
  EXPECT_NE(timeline_->last().stream.done_seen, kNotRecorded);
}

TEST_F(NcclStrategyOrder, AnUntracedExchangeStampsNothing) {
  make(false);
  run(1, 1);
  // end() keeps nothing when untraced: the last record is the empty one.
  EXPECT_EQ(timeline_->last().stream.pack_launched, kNotRecorded);
  EXPECT_EQ(timeline_->last().stream.gpu_pack_ns, kNotRecorded);
}

TEST_F(NcclStrategyOrder, AnUnfinishedExchangeIsAbandonedAtShutDown) {
  make(false);
  timeline_->begin(1);
  strategy_->start(1, PackStart::by_strategy);
  log_.clear();
  strategy_->shut_down();
  EXPECT_EQ(log_, (Log{"abandon", "synchronize"}));
}

TEST_F(NcclStrategyOrder, AFinishedExchangeIsNotAbandoned) {
  make(false);
  run(1, 0);
  log_.clear();
  strategy_->shut_down();
  EXPECT_EQ(log_, (Log{"synchronize"}));
}

}  // namespace
}  // namespace haloflag::halo::detail
