/// @file
/// Measured GPU pack and unpack times by message size (the paper's Table 3), read by size with
/// linear interpolation between measured sizes.
///
/// Outside the measured range (a choice, documented in docs/model.md):
///  - below the smallest size the time is clamped to the smallest size's time: small-message
///    kernels cost their launch and synchronisation, which a line through larger sizes would
///    underestimate and could even drive negative;
///  - above the largest size the line through the last two points is extended (never below the
///    last measured time): pack/unpack of big halos is bandwidth bound, so time keeps growing
///    with bytes and clamping would understate it.
/// A table of one size gives that size's times everywhere.
#pragma once

#include <cstdint>
#include <vector>

namespace haloflag::model {

/// Measured pack and unpack times of one message size.
struct PackUnpackPoint {
  std::int64_t bytes = 0;  ///< message size
  double pack_seconds = 0.0;  ///< pooled pack time
  double unpack_seconds = 0.0;  ///< pooled unpack time
  /// The slowest shape of this size (faces of one size pack with different strides, and an
  /// exchange waits for its slowest message); 0 when not measured: the pooled time stands in.
  double pack_slowest_seconds = 0.0;
  double unpack_slowest_seconds = 0.0;  ///< the slowest shape's unpack time; 0 when not measured

  /// Equal in every field.
  bool operator==(const PackUnpackPoint&) const = default;
};

/// Where a looked-up size fell relative to the measured sizes.
enum class TableRange { inside, below_clamped, above_extrapolated };

/// A time looked up in a PackUnpackTable, and where the size fell.
struct TableLookup {
  double seconds = 0.0;  ///< the time
  TableRange range = TableRange::inside;  ///< where the size fell relative to the measured sizes
};

/// Pack and unpack times by message size, looked up between the measured sizes.
class PackUnpackTable {
 public:
  PackUnpackTable() = default;
  /// Throws std::invalid_argument naming the entry when the table is empty, a size is < 1 or not
  /// strictly increasing, or a time is not > 0.
  explicit PackUnpackTable(std::vector<PackUnpackPoint> points);

  /// Pooled pack time of a message of `bytes`.
  TableLookup pack_time(std::int64_t bytes) const;
  /// Pooled unpack time of a message of `bytes`.
  TableLookup unpack_time(std::int64_t bytes) const;
  /// Slowest-shape pack time of a message of `bytes` (pooled where not measured).
  TableLookup pack_slowest_time(std::int64_t bytes) const;
  /// Slowest-shape unpack time of a message of `bytes` (pooled where not measured).
  TableLookup unpack_slowest_time(std::int64_t bytes) const;

  /// The measured points, by increasing size.
  const std::vector<PackUnpackPoint>& points() const noexcept { return points_; }
  /// Whether the table has no points.
  bool empty() const noexcept { return points_.empty(); }

  /// Equal in every point.
  bool operator==(const PackUnpackTable&) const = default;

 private:
  std::vector<PackUnpackPoint> points_;
};

}  // namespace haloflag::model
