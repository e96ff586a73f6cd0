#include "haloflag/model/pack_unpack_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace haloflag::model {

namespace {

// `time_of` picks the pack or the unpack column.
template <class TimeOf>
TableLookup look_up(const std::vector<PackUnpackPoint>& points, std::int64_t bytes, TimeOf time_of) {
  if (points.empty()) throw std::logic_error("pack/unpack table is empty");
  const PackUnpackPoint& first = points.front();
  const PackUnpackPoint& last = points.back();
  if (bytes < first.bytes) return {time_of(first), TableRange::below_clamped};
  if (bytes == last.bytes || points.size() == 1) {
    return {time_of(last), bytes > last.bytes ? TableRange::above_extrapolated : TableRange::inside};
  }

  // Segment [lo, hi] holding bytes, or the last segment when bytes is beyond it.
  auto hi = std::upper_bound(points.begin(), points.end(), bytes,
                             [](std::int64_t b, const PackUnpackPoint& p) { return b < p.bytes; });
  const bool above = hi == points.end();
  if (above) hi = points.end() - 1;
  const auto lo = hi - 1;
  const double fraction = static_cast<double>(bytes - lo->bytes) /
                          static_cast<double>(hi->bytes - lo->bytes);
  const double seconds = time_of(*lo) + fraction * (time_of(*hi) - time_of(*lo));
  if (above) return {std::max(seconds, time_of(last)), TableRange::above_extrapolated};
  return {seconds, TableRange::inside};
}

}  // namespace

PackUnpackTable::PackUnpackTable(std::vector<PackUnpackPoint> points) : points_(std::move(points)) {
  if (points_.empty()) throw std::invalid_argument("pack/unpack table: no entries");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const PackUnpackPoint& p = points_[i];
    const std::string where = "pack/unpack table entry " + std::to_string(i) + " (" +
                              std::to_string(p.bytes) + " B): ";
    if (p.bytes < 1) throw std::invalid_argument(where + "size must be >= 1");
    if (i > 0 && p.bytes <= points_[i - 1].bytes) {
      throw std::invalid_argument(where + "sizes must be strictly increasing");
    }
    if (!(p.pack_seconds > 0.0) || !(p.unpack_seconds > 0.0)) {
      throw std::invalid_argument(where + "pack and unpack times must be > 0");
    }
    if (p.pack_slowest_seconds < 0.0 || p.unpack_slowest_seconds < 0.0) {
      throw std::invalid_argument(where + "slowest-shape times must be >= 0 (0: not measured)");
    }
  }
}

TableLookup PackUnpackTable::pack_time(std::int64_t bytes) const {
  return look_up(points_, bytes, [](const PackUnpackPoint& p) { return p.pack_seconds; });
}

TableLookup PackUnpackTable::unpack_time(std::int64_t bytes) const {
  return look_up(points_, bytes, [](const PackUnpackPoint& p) { return p.unpack_seconds; });
}

TableLookup PackUnpackTable::pack_slowest_time(std::int64_t bytes) const {
  return look_up(points_, bytes, [](const PackUnpackPoint& p) {
    return p.pack_slowest_seconds > 0.0 ? p.pack_slowest_seconds : p.pack_seconds;
  });
}

TableLookup PackUnpackTable::unpack_slowest_time(std::int64_t bytes) const {
  return look_up(points_, bytes, [](const PackUnpackPoint& p) {
    return p.unpack_slowest_seconds > 0.0 ? p.unpack_slowest_seconds : p.unpack_seconds;
  });
}

}  // namespace haloflag::model
