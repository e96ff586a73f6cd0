#include "halo_set_measurement.hpp"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/host_field.hpp"
#include "message_check.hpp"
#include "mpi_call.hpp"
#include "sample_summary.hpp"

namespace haloflag::bench {

namespace {

using model::calibration::check_mpi;

const char* work_name(MessageWork work) { return work == MessageWork::pack ? "pack" : "unpack"; }

std::string set_name(MessageWork work, std::int64_t cube, BufferPlace place) {
  return std::string("fused ") + work_name(work) + " of cube " + std::to_string(cube) + " (" +
         to_string(place) + " buffer)";
}

std::string message_name(const HaloSetKernel& kernel, const char* kind, std::size_t message,
                         std::size_t count) {
  return kernel.name() + ", " + kind + " " + std::to_string(message) + " of " +
         std::to_string(count);
}

std::int64_t bytes_of(const std::vector<kernels::MessageLayout>& layouts) {
  std::int64_t bytes = 0;
  for (const kernels::MessageLayout& layout : layouts) bytes += layout.bytes();
  return bytes;
}

std::vector<double> time_runs(HaloSetKernel& kernel, const MeasureSettings& settings,
                              MPI_Comm comm) {
  const auto run = [&] {
    check_mpi(MPI_Barrier(comm), "MPI_Barrier(halo set run)");
    return kernel.run();
  };
  for (int i = 0; i < settings.warmup; ++i) run();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(settings.iterations));
  for (int i = 0; i < settings.iterations; ++i) samples.push_back(run() * 1e6);
  return samples;
}

void measure_cube(const CubeHalo& cube, const MeasureSettings& settings, MPI_Comm comm,
                  std::vector<TimedHaloSet>& out) {
  const std::int64_t side = cube.side;
  const int vars = cube.vars;
  const halo::MessageLayouts& layouts = cube.layouts;
  halo::HostField host(cube.field_extent, vars);
  fill_distinct(host);
  halo::DeviceFields fields(settings.backend, cube.field_extent, vars);
  fields.upload(host);
  halo::HostField unpacked(cube.field_extent, vars);

  const auto timed_set = [&](MessageWork work, BufferPlace place,
                             const std::vector<kernels::MessageLayout>& messages,
                             std::vector<double> samples) {
    TimedHaloSet set;
    set.cube = side;
    set.field_extent = cube.field_extent;
    set.vars = vars;
    set.work = work;
    set.place = place;
    set.messages = static_cast<int>(messages.size());
    set.bytes = bytes_of(messages);
    set.launch_us = {std::move(samples)};
    out.push_back(std::move(set));
  };

  for (const BufferPlace place : {BufferPlace::pinned, BufferPlace::device}) {
    HaloSetKernel pack(settings.backend, MessageWork::pack, place, layouts.sends,
                       layouts.send_buffer_bytes, fields.view(), settings.launch,
                       set_name(MessageWork::pack, side, place));
    pack.run();
    const std::vector<std::byte> packed = pack.read_buffer();
    for (std::size_t m = 0; m < layouts.sends.size(); ++m) {
      const kernels::MessageLayout& layout = layouts.sends[m];
      check_message(layout, host, packed.data() + layout.buffer_offset,
                    message_name(pack, "send", m, layouts.sends.size()));
    }
    timed_set(MessageWork::pack, place, layouts.sends, time_runs(pack, settings, comm));

    HaloSetKernel unpack(settings.backend, MessageWork::unpack, place, layouts.recvs,
                         layouts.recv_buffer_bytes, fields.view(), settings.launch,
                         set_name(MessageWork::unpack, side, place));
    std::vector<std::byte> received(unpack.buffer_bytes());
    for (std::size_t r = 0; r < layouts.recvs.size(); ++r) {
      const kernels::MessageLayout& layout = layouts.recvs[r];
      fill_message(received.data() + layout.buffer_offset,
                   static_cast<std::size_t>(layout.bytes()), static_cast<int>(r) + 1);
    }
    unpack.write_buffer(received);
    unpack.run();
    // Receive boxes of one rank are disjoint ghost regions: one download shows every unpack.
    fields.download(unpacked);
    for (std::size_t r = 0; r < layouts.recvs.size(); ++r) {
      const kernels::MessageLayout& layout = layouts.recvs[r];
      check_message(layout, unpacked, received.data() + layout.buffer_offset,
                    message_name(unpack, "receive", r, layouts.recvs.size()));
    }
    timed_set(MessageWork::unpack, place, layouts.recvs, time_runs(unpack, settings, comm));
  }
}

}  // namespace

double slowest_rank_median_us(const TimedHaloSet& set) {
  return model::calibration::summarize(model::calibration::slowest_rank_per_run(set.launch_us))
      .median;
}

std::vector<CubeHalo> halo_set_cubes(const std::vector<std::int64_t>& sides, int vars) {
  std::vector<CubeHalo> cubes;
  for (const std::int64_t side : sides) cubes.push_back(cube_halo(side, vars, "--halo-cubes"));
  return cubes;
}

std::vector<TimedHaloSet> measure_halo_sets(const std::vector<CubeHalo>& cubes,
                                            const MeasureSettings& settings, MPI_Comm comm,
                                            int rank) {
  std::vector<TimedHaloSet> sets;
  for (const CubeHalo& cube : cubes) {
    const auto start = std::chrono::steady_clock::now();
    const std::size_t first = sets.size();
    measure_cube(cube, settings, comm, sets);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[rank %d] halo set of cube %lld (field %s, %d vars, %d messages, %lld B): fused "
                "pack and unpack, pinned and device buffer, verified and timed in %.2f s\n",
                rank, static_cast<long long>(cube.side),
                halo::format_triple(cube.field_extent, 'x').c_str(), cube.vars,
                sets[first].messages, static_cast<long long>(sets[first].bytes), seconds);
    std::fflush(stdout);
  }
  return sets;
}

void gather_halo_set_samples(MPI_Comm comm, std::vector<TimedHaloSet>& sets, int iterations) {
  // Every rank timed the same sets in the same order.
  std::vector<const std::vector<double>*> lists;
  for (const TimedHaloSet& set : sets) {
    if (set.launch_us.size() != 1) {
      throw std::logic_error("gather_halo_set_samples: a set does not hold one rank's samples");
    }
    lists.push_back(&set.launch_us[0]);
  }
  auto gathered = gather_sample_lists(comm, lists, iterations, "halo set samples");
  if (gathered.empty()) return;
  for (std::size_t s = 0; s < sets.size(); ++s) sets[s].launch_us = std::move(gathered[s]);
}

std::string FusedFit::name() const { return std::string(work_name(work)) + "_" + to_string(place); }

std::vector<FusedFit> fit_halo_sets(const std::vector<TimedHaloSet>& sets, int sharers) {
  std::vector<FusedFit> fits;
  if (sets.empty()) return fits;
  for (const BufferPlace place : {BufferPlace::pinned, BufferPlace::device}) {
    for (const MessageWork work : {MessageWork::pack, MessageWork::unpack}) {
      FusedFit fused;
      fused.work = work;
      fused.place = place;
      fused.sharers = sharers;
      std::vector<std::int64_t> bytes;
      std::vector<double> seconds;
      for (const TimedHaloSet& set : sets) {
        if (set.work != work || set.place != place) continue;
        bytes.push_back(set.bytes);
        seconds.push_back(slowest_rank_median_us(set) * 1e-6);
      }
      try {
        fused.fit = model::fit_postal(bytes, seconds);
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument("fit of the fused " + fused.name() + " times: " + error.what());
      }
      fits.push_back(std::move(fused));
    }
  }
  return fits;
}

}  // namespace haloflag::bench
