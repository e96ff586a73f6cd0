#include "size_table.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace haloflag::bench {

namespace {

// Mean of every run of one shape, on every rank.
double mean_of(const std::vector<std::vector<double>>& per_rank) {
  double sum = 0.0;
  std::size_t count = 0;
  for (const auto& samples : per_rank) {
    for (const double sample : samples) sum += sample;
    count += samples.size();
  }
  return count == 0 ? 0.0 : sum / static_cast<double>(count);
}

struct Pool {
  int shapes = 0;
  std::vector<double> block_us;
  std::vector<double> launch_us;
  double slowest_block_us = 0.0;
  double slowest_launch_us = 0.0;

  void add(const TimedShape& shape) {
    ++shapes;
    for (const auto& samples : shape.block_us) block_us.insert(block_us.end(), samples.begin(), samples.end());
    for (const auto& samples : shape.launch_us) launch_us.insert(launch_us.end(), samples.begin(), samples.end());
    slowest_block_us = std::max(slowest_block_us, mean_of(shape.block_us));
    slowest_launch_us = std::max(slowest_launch_us, mean_of(shape.launch_us));
  }

  std::optional<WorkSummary> summary() const {
    if (shapes == 0) return std::nullopt;
    return WorkSummary{shapes, model::calibration::summarize(block_us),
                       model::calibration::summarize(launch_us), slowest_block_us,
                       slowest_launch_us};
  }
};

}  // namespace

std::vector<SizeRow> pool_by_size(const std::vector<TimedShape>& shapes) {
  std::map<std::int64_t, std::pair<Pool, Pool>> pools;  // bytes -> (pack, unpack)
  for (const TimedShape& shape : shapes) {
    auto& [pack, unpack] = pools[shape.shape.bytes];
    (shape.work == MessageWork::pack ? pack : unpack).add(shape);
  }
  std::vector<SizeRow> rows;
  for (const auto& [bytes, pool] : pools) {
    rows.push_back({bytes, pool.first.summary(), pool.second.summary()});
  }
  return rows;
}

double finest_block_time_us(const std::vector<TimedShape>& shapes) {
  double finest = 0.0;
  for (const TimedShape& shape : shapes) {
    for (const auto& samples : shape.block_us) {
      for (const double sample : samples) {
        if (sample > 0.0 && (finest == 0.0 || sample < finest)) finest = sample;
      }
    }
  }
  return finest;
}

TableWithNotes make_table(const std::vector<SizeRow>& rows, TableTime time, double finest_us) {
  TableWithNotes result;
  const double unresolved_us = finest_us > 0.0 ? finest_us / 2.0 : 0.001;
  const auto table_us = [&](const WorkSummary& work, std::int64_t bytes, const char* what) {
    double us = work.table_us(time);
    if (!(us > 0.0)) {
      us = unresolved_us;
      result.notes.push_back(std::to_string(bytes) + " B " + what + ": every run read 0 on the "
                             "block's clock (below its step); set to half the finest block time "
                             "seen, " + std::to_string(us) + " us");
    }
    return us;
  };
  // An exchange waits for its slowest message, and the faces of one size pack with different
  // strides (an x-face is 30-40% slower than a z-face), so the table keeps the slowest shape too.
  const auto slowest_us = [&](const WorkSummary& work, double pooled_us) {
    const double us = work.slowest_us(time);
    return std::max(us > 0.0 ? us : unresolved_us, pooled_us);
  };
  std::vector<model::PackUnpackPoint> points;
  for (const SizeRow& row : rows) {
    if (!row.pack || !row.unpack) {
      result.notes.push_back(std::to_string(row.bytes) + " B left out: only " +
                             (row.pack ? "sends" : "receives") + " of this size were timed");
      continue;
    }
    const double pack_us = table_us(*row.pack, row.bytes, "pack");
    const double unpack_us = table_us(*row.unpack, row.bytes, "unpack");
    model::PackUnpackPoint point;
    point.bytes = row.bytes;
    point.pack_seconds = pack_us * 1e-6;
    point.unpack_seconds = unpack_us * 1e-6;
    point.pack_slowest_seconds = slowest_us(*row.pack, pack_us) * 1e-6;
    point.unpack_slowest_seconds = slowest_us(*row.unpack, unpack_us) * 1e-6;
    points.push_back(point);
  }
  if (points.empty()) {
    throw std::invalid_argument("no message size was timed both packed and unpacked: the table "
                                "needs both times per size");
  }
  result.table = model::PackUnpackTable(std::move(points));
  return result;
}

}  // namespace haloflag::bench
