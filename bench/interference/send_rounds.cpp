#include "send_rounds.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpi_deadline.hpp"

namespace haloflag::bench::interference {

namespace {

constexpr int kReadyTag = 1;
constexpr int kDataTag = 2;
constexpr int kCheckTag = 3;

// Round whose data the receiver checks: the last warm-up round, or the first timed one.
int checked_round(const RoundSettings& settings) {
  return settings.warmup > 0 ? settings.warmup - 1 : 0;
}

// The epoch whose pattern the send buffer holds in round `round_epoch` of a case whose first
// round has epoch `first_epoch`; none for PSB, whose buffer changes while it is sent.
std::optional<std::uint64_t> expected_epoch(Scenario scenario, std::uint64_t first_epoch,
                                            std::uint64_t round_epoch) {
  if (scenario == Scenario::psb) return std::nullopt;
  if (kernel_writes(scenario)) return round_epoch;
  return first_epoch;  // filled by the host when the case began
}

// The caller names the case; this names the round within it.
std::string round_name(int round, std::uint64_t epoch) {
  return "round " + std::to_string(round) + " (epoch " + std::to_string(epoch) + ")";
}

}  // namespace

SenderSide::SenderSide(notify::Backend backend, std::chrono::nanoseconds timeout,
                       std::size_t max_bytes, std::size_t gap_bytes)
    : control(backend, timeout),
      ready(control, 1, notify::FlagWriter::device, "send_buffer_ready"),
      stop(control, 1, notify::FlagWriter::host, "send_returned"),
      words_written(backend, sizeof(std::uint64_t)),
      buffers(backend, max_bytes, gap_bytes) {}

CaseResult run_sender_case(const RoundSettings& settings, SenderSide& side, const CaseKey& key,
                           std::uint64_t& epoch) {
  CaseResult result;
  result.key = key;
  result.target_offset_bytes = side.buffers.target_offset(key.scenario, key.bytes);
  const std::size_t words = key.bytes / sizeof(std::uint32_t);
  const bool kernel = kernel_writes(key.scenario);
  const bool during_send = writes_during_send(key.scenario);
  // The kernel's own deadline ends it first; this one only catches a kernel that never ran.
  const std::chrono::nanoseconds finish_deadline = 2 * settings.timeout;
  auto* written = static_cast<std::uint64_t*>(side.words_written.host());

  if (!kernel) fill_pattern(side.buffers.send_host(), words, epoch + 1);
  if (key.scenario == Scenario::copies) side.copies->start(settings.timeout);

  const int rounds = settings.warmup + settings.iterations;
  for (int round = 0; round < rounds; ++round) {
    ++epoch;
    if (kernel) {
      AccessPlan plan;
      plan.send = side.buffers.send_device();
      plan.target = side.buffers.target_device(key.scenario, key.bytes);
      plan.words = words;
      plan.ready = side.ready.device_view();
      plan.stop = side.stop.device_view();
      plan.control = side.control.device_control();
      plan.epoch = epoch;
      plan.stop_poll_ns = settings.stop_poll_ns;
      plan.words_written = static_cast<std::uint64_t*>(side.words_written.device());
      *written = 0;
      side.accessor->start(*key.access, plan);
    }

    MPI_Request ready_request = MPI_REQUEST_NULL;
    check_mpi(MPI_Irecv(nullptr, 0, MPI_BYTE, kReceiverRank, kReadyTag, settings.comm,
                        &ready_request),
              "MPI_Irecv (ready)");
    wait_with_deadline(ready_request, settings.timeout,
                       "the receiver's ready message of " + round_name(round, epoch));
    if (key.scenario == Scenario::ssb) {
      side.accessor->finish(finish_deadline);
      side.control.throw_if_device_failed();
    } else if (during_send) {
      side.ready.wait(0, epoch);
    }

    const auto sent_at = std::chrono::steady_clock::now();
    check_mpi(MPI_Send(side.buffers.send_host(), static_cast<int>(key.bytes), MPI_BYTE,
                       kReceiverRank, kDataTag, settings.comm),
              ("MPI_Send of " + round_name(round, epoch)).c_str());
    const auto returned_at = std::chrono::steady_clock::now();

    if (during_send) {
      side.stop.signal(0, epoch);
      side.accessor->finish(finish_deadline);
      side.control.throw_if_device_failed();
    }
    if (round < settings.warmup) continue;
    result.samples_us.push_back(
        std::chrono::duration<double, std::micro>(returned_at - sent_at).count());
    if (during_send) {
      result.gpu_passes.push_back(static_cast<double>(*written) / static_cast<double>(words));
    }
  }
  if (key.scenario == Scenario::copies) result.copy_pairs = side.copies->stop();

  std::int64_t check[3] = {0, 0, -1};  // checked, mismatches, first mismatch
  MPI_Request check_request = MPI_REQUEST_NULL;
  check_mpi(MPI_Irecv(check, 3, MPI_INT64_T, kReceiverRank, kCheckTag, settings.comm,
                      &check_request),
            "MPI_Irecv (check)");
  wait_with_deadline(check_request, settings.timeout, "the receiver's data check");
  result.check.checked = check[0] != 0;
  result.check.mismatches = static_cast<std::uint64_t>(check[1]);
  result.check.first_mismatch = check[2];
  if (!result.check.checked) {
    result.check.not_checked_reason = "PSB: the GPU changes the buffer while it is sent";
  }
  result.summary_us = model::calibration::summarize(result.samples_us);
  return result;
}

void run_receiver_case(const RoundSettings& settings, const notify::MappedAllocation& receive,
                       const CaseKey& key, std::uint64_t& epoch) {
  const std::uint64_t first_epoch = epoch + 1;
  const auto* words = static_cast<const std::uint32_t*>(receive.host());
  std::int64_t check[3] = {0, 0, -1};
  char ready = 0;  // the ready message carries no data

  const int rounds = settings.warmup + settings.iterations;
  for (int round = 0; round < rounds; ++round) {
    ++epoch;
    MPI_Request data_request = MPI_REQUEST_NULL;
    check_mpi(MPI_Irecv(receive.host(), static_cast<int>(key.bytes), MPI_BYTE, kSenderRank,
                        kDataTag, settings.comm, &data_request),
              "MPI_Irecv (data)");
    check_mpi(MPI_Send(&ready, 0, MPI_BYTE, kSenderRank, kReadyTag, settings.comm),
              "MPI_Send (ready)");
    wait_with_deadline(data_request, settings.timeout, "the data of " + round_name(round, epoch));
    if (round != checked_round(settings)) continue;
    if (const auto expected = expected_epoch(key.scenario, first_epoch, epoch)) {
      const PatternCheck found =
          check_pattern(words, key.bytes / sizeof(std::uint32_t), *expected);
      check[0] = 1;
      check[1] = static_cast<std::int64_t>(found.mismatches);
      check[2] = found.first_mismatch;
    }
  }
  check_mpi(MPI_Send(check, 3, MPI_INT64_T, kSenderRank, kCheckTag, settings.comm),
            "MPI_Send (check)");
}

}  // namespace haloflag::bench::interference
