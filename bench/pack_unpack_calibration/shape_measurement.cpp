#include "shape_measurement.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/host_field.hpp"
#include "message_check.hpp"
#include "mpi_call.hpp"

namespace haloflag::bench {

namespace {

using model::calibration::check_mpi;
using model::calibration::rank_and_size;

std::string kernel_name(const ShapeSource& source, const MessageShape& shape, MessageWork work) {
  return std::string(work == MessageWork::pack ? "pack" : "unpack") + " of " +
         std::to_string(shape.bytes) + " B (boxes " + shape.boxes + ", " + source.name + ")";
}

TimedShape timed_shape(const ShapeSource& source, const MessageShape& shape, MessageWork work) {
  TimedShape timed;
  timed.source = source.name;
  timed.field_extent = source.field_extent;
  timed.vars = source.vars;
  timed.work = work;
  timed.shape = shape;
  return timed;
}

void time_runs(OneMessageKernel& kernel, const MeasureSettings& settings, TimedShape& timed) {
  for (int i = 0; i < settings.warmup; ++i) kernel.run();
  std::vector<double> block;
  std::vector<double> launch;
  block.reserve(static_cast<std::size_t>(settings.iterations));
  launch.reserve(static_cast<std::size_t>(settings.iterations));
  for (int i = 0; i < settings.iterations; ++i) {
    const WorkTimes times = kernel.run();
    block.push_back(times.block_seconds * 1e6);
    launch.push_back(times.launch_seconds * 1e6);
  }
  timed.block_us = {std::move(block)};
  timed.launch_us = {std::move(launch)};
}

void measure_source(const ShapeSource& source, const MeasureSettings& settings,
                    std::vector<TimedShape>& out) {
  halo::HostField host(source.field_extent, source.vars);
  fill_distinct(host);
  halo::DeviceFields fields(settings.backend, source.field_extent, source.vars);
  fields.upload(host);

  for (const MessageShape& shape : source.packs) {
    const std::string name = kernel_name(source, shape, MessageWork::pack);
    OneMessageKernel kernel(settings.backend, MessageWork::pack, shape.layout, fields.view(),
                            settings.launch, settings.timeout, name);
    kernel.run();
    check_message(shape.layout, host, kernel.buffer(), name);
    TimedShape timed = timed_shape(source, shape, MessageWork::pack);
    time_runs(kernel, settings, timed);
    out.push_back(std::move(timed));
  }

  std::vector<std::unique_ptr<OneMessageKernel>> unpacks;
  for (std::size_t s = 0; s < source.unpacks.size(); ++s) {
    const MessageShape& shape = source.unpacks[s];
    unpacks.push_back(std::make_unique<OneMessageKernel>(
        settings.backend, MessageWork::unpack, shape.layout, fields.view(), settings.launch,
        settings.timeout, kernel_name(source, shape, MessageWork::unpack)));
    fill_message(unpacks.back()->buffer(), unpacks.back()->buffer_bytes(), static_cast<int>(s) + 1);
    unpacks.back()->run();
  }
  if (!unpacks.empty()) {
    // Receive boxes of one rank are disjoint ghost regions: one download shows every unpack.
    fields.download(host);
    for (std::size_t s = 0; s < unpacks.size(); ++s) {
      check_message(source.unpacks[s].layout, host, unpacks[s]->buffer(), unpacks[s]->name());
    }
  }
  for (std::size_t s = 0; s < unpacks.size(); ++s) {
    TimedShape timed = timed_shape(source, source.unpacks[s], MessageWork::unpack);
    time_runs(*unpacks[s], settings, timed);
    out.push_back(std::move(timed));
  }
}

}  // namespace

std::vector<TimedShape> measure_shapes(const std::vector<ShapeSource>& sources,
                                       const MeasureSettings& settings, int rank) {
  std::vector<TimedShape> shapes;
  for (const ShapeSource& source : sources) {
    const auto start = std::chrono::steady_clock::now();
    measure_source(source, settings, shapes);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[rank %d] %s (field %s, %d vars): %zu pack and %zu unpack shapes verified and "
                "timed in %.2f s\n",
                rank, source.name.c_str(), halo::format_triple(source.field_extent, 'x').c_str(),
                source.vars, source.packs.size(), source.unpacks.size(), seconds);
    std::fflush(stdout);
  }
  return shapes;
}

std::vector<std::vector<std::vector<double>>> gather_sample_lists(
    MPI_Comm comm, const std::vector<const std::vector<double>*>& lists, int iterations,
    const char* what) {
  const auto [rank, ranks] = rank_and_size(comm);
  const auto per_list = static_cast<std::size_t>(iterations);
  std::vector<double> mine;
  mine.reserve(lists.size() * per_list);
  for (const std::vector<double>* list : lists) {
    if (list->size() != per_list) {
      throw std::logic_error(std::string("gathering ") + what + ": a list holds " +
                             std::to_string(list->size()) + " samples, not " +
                             std::to_string(per_list));
    }
    mine.insert(mine.end(), list->begin(), list->end());
  }
  std::vector<double> all(rank == 0 ? mine.size() * static_cast<std::size_t>(ranks) : 0);
  check_mpi(MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                       static_cast<int>(mine.size()), MPI_DOUBLE, 0, comm),
            (std::string("MPI_Gather(") + what + ")").c_str());
  std::vector<std::vector<std::vector<double>>> gathered;
  if (rank != 0) return gathered;
  gathered.resize(lists.size());
  for (std::size_t l = 0; l < lists.size(); ++l) {
    for (int r = 0; r < ranks; ++r) {
      const double* first = all.data() + static_cast<std::size_t>(r) * mine.size() + l * per_list;
      gathered[l].emplace_back(first, first + per_list);
    }
  }
  return gathered;
}

void gather_samples(MPI_Comm comm, std::vector<TimedShape>& shapes, int iterations) {
  // Every rank timed the same shapes in the same order: each one's block, then launch times.
  std::vector<const std::vector<double>*> lists;
  for (const TimedShape& shape : shapes) {
    if (shape.block_us.size() != 1 || shape.launch_us.size() != 1) {
      throw std::logic_error("gather_samples: a shape does not hold one rank's samples");
    }
    lists.push_back(&shape.block_us[0]);
    lists.push_back(&shape.launch_us[0]);
  }
  auto gathered = gather_sample_lists(comm, lists, iterations, "samples");
  if (gathered.empty()) return;
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    shapes[s].block_us = std::move(gathered[2 * s]);
    shapes[s].launch_us = std::move(gathered[2 * s + 1]);
  }
}

}  // namespace haloflag::bench
