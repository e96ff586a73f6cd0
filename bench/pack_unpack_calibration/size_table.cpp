#include "size_table.hpp"

#include <map>
#include <stdexcept>

namespace haloflag::bench {

namespace {

struct Pool {
  int shapes = 0;
  std::vector<double> block_us;
  std::vector<double> launch_us;

  void add(const TimedShape& shape) {
    ++shapes;
    for (const auto& samples : shape.block_us) block_us.insert(block_us.end(), samples.begin(), samples.end());
    for (const auto& samples : shape.launch_us) launch_us.insert(launch_us.end(), samples.begin(), samples.end());
  }

  std::optional<WorkSummary> summary() const {
    if (shapes == 0) return std::nullopt;
    return WorkSummary{shapes, model::calibration::summarize(block_us),
                       model::calibration::summarize(launch_us)};
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
  const auto table_seconds = [&](const WorkSummary& work, std::int64_t bytes, const char* what) {
    double us = work.table_us(time);
    if (!(us > 0.0)) {
      us = unresolved_us;
      result.notes.push_back(std::to_string(bytes) + " B " + what + ": every run read 0 on the "
                             "block's clock (below its step); set to half the finest block time "
                             "seen, " + std::to_string(us) + " us");
    }
    return us * 1e-6;
  };
  std::vector<model::PackUnpackPoint> points;
  for (const SizeRow& row : rows) {
    if (!row.pack || !row.unpack) {
      result.notes.push_back(std::to_string(row.bytes) + " B left out: only " +
                             (row.pack ? "sends" : "receives") + " of this size were timed");
      continue;
    }
    points.push_back({row.bytes, table_seconds(*row.pack, row.bytes, "pack"),
                      table_seconds(*row.unpack, row.bytes, "unpack")});
  }
  if (points.empty()) {
    throw std::invalid_argument("no message size was timed both packed and unpacked: the table "
                                "needs both times per size");
  }
  result.table = model::PackUnpackTable(std::move(points));
  return result;
}

}  // namespace haloflag::bench
