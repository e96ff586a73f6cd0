// Updating every cell of a box (or of several boxes), shared out among the members of a group:
// member `member` of `members` takes cells member, member + members, ... (x fastest), so a GPU
// grid, a GPU block, a team of CPU threads or one CPU thread covers the boxes exactly once.
#pragma once

#include <cstdint>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/portability.hpp"

namespace jacobi3d {

// Returns where the member goes on past the box: its first cell in whatever follows, counted
// from the box's end (sweep_boxes lays boxes end to end).
template <class Real>
HF_HD inline std::int64_t sweep_box(StencilKind kind, const SweepFields<Real>& fields,
                                    const haloflag::kernels::Box& box, std::int64_t member,
                                    std::int64_t members) {
  const std::int64_t cells = box.cells();
  if (member >= cells) return member - cells;
  // A local field holds far fewer than 2^32 cells: the index arithmetic runs in 32 bits, which
  // GPUs divide much faster than 64-bit numbers. The member's first cell and its step to the
  // next are split into (x, y, z) once; each further cell then adds the step, carrying at most
  // once per axis, so the loop divides nothing (per-cell divisions cost a memory-bound update
  // much of its rate on a GPU).
  const auto nx = static_cast<std::uint32_t>(box.extent[0]);
  const auto ny = static_cast<std::uint32_t>(box.extent[1]);
  const std::uint32_t plane = nx * ny;
  const auto first = static_cast<std::uint32_t>(member);
  const std::uint32_t z = first / plane;
  std::uint32_t y = (first - z * plane) / nx;
  std::uint32_t x = first - z * plane - y * nx;
  const std::int64_t sy = fields.stride_y;
  const std::int64_t sz = fields.stride_z;
  std::int64_t cell = (box.begin[2] + z) * sz + (box.begin[1] + y) * sy + box.begin[0] + x;
  if (members >= cells) {  // one cell (a GPU grid over the thin slabs): no step to split
    update_cell(kind, fields, cell);
    return member + members - cells;
  }
  const auto step = static_cast<std::uint32_t>(members);
  const std::uint32_t step_z = step / plane;
  const std::uint32_t step_y = (step - step_z * plane) / nx;
  const std::uint32_t step_x = step - step_z * plane - step_y * nx;
  const std::int64_t step_cell = std::int64_t{step_z} * sz + std::int64_t{step_y} * sy + step_x;
  std::int64_t i = member;
  for (; i < cells; i += members) {
    update_cell(kind, fields, cell);
    x += step_x;
    y += step_y;
    cell += step_cell;
    if (x >= nx) {  // next row
      x -= nx;
      ++y;
      cell += sy - nx;
    }
    if (y >= ny) {  // next plane
      y -= ny;
      cell += sz - std::int64_t{ny} * sy;
    }
  }
  return i - cells;
}

// Tiles of one plane that a group of kTileCells consecutive members covers together: a GPU
// block of 256 threads (or a part of a larger one) then updates 8 rows of 32 cells, as the plain
// update kernel's blocks do, and the rows and planes around a cell that its neighbours also read
// come from the block's cache instead of memory.
inline constexpr std::uint32_t kTileX = 32;
inline constexpr std::uint32_t kTileY = 8;
inline constexpr std::uint32_t kTileCells = kTileX * kTileY;

// Most planes a member walks up a column (update_column).
inline constexpr std::uint32_t kMaxColumnRun = 16;

// The planes per column run when `groups` groups of members (or blocks held at once) share
// `tiles` x-y tiles of `planes` planes: of 1, 2, 4, 8 and 16, the one of the fewest rounds of
// runs times the planes a run loads (its own and the two it starts from). Long runs load less
// per cell; a run length that leaves some groups a round more than the rest costs that round.
HF_HD inline std::uint32_t column_run(std::uint32_t tiles, std::uint32_t planes,
                                      std::uint32_t groups,
                                      std::uint32_t max_run = kMaxColumnRun) {
  // 32-bit throughout (a rank's part holds far fewer than 2^32 cells): a GPU divides 64-bit
  // numbers in software, and the resident kernel sizes its runs on every sweep.
  std::uint32_t best = 1;
  std::uint32_t best_cost = ~std::uint32_t{0};
  for (std::uint32_t run = 1; run <= max_run; run *= 2) {
    const std::uint32_t items = tiles * ((planes + run - 1) / run);
    const std::uint32_t rounds = (items + groups - 1) / groups;
    const std::uint32_t cost = rounds * ((run < planes ? run : planes) + 2);
    if (cost < best_cost) {
      best = run;
      best_cost = cost;
    }
  }
  return best;
}

// The column runs of a box: x-y tiles of kTileX x kTileY cells, each walked `run` planes up at a
// time. Run `item` is tile item % tiles() (x fastest, then y), planes from (item / tiles()) * run.
struct ColumnRuns {
  std::uint32_t tiles_x;
  std::uint32_t tiles_y;
  std::uint32_t run;     // planes per run (column_run)
  std::uint32_t runs_z;  // runs per column
  HF_HD std::uint32_t tiles() const { return tiles_x * tiles_y; }
  HF_HD std::uint32_t count() const { return tiles() * runs_z; }
};

// The runs of `box` for `groups` groups of kTileCells members.
HF_HD inline ColumnRuns column_runs(const haloflag::kernels::Box& box, std::uint32_t groups,
                                    std::uint32_t max_run = kMaxColumnRun) {
  const auto nx = static_cast<std::uint32_t>(box.extent[0]);
  const auto ny = static_cast<std::uint32_t>(box.extent[1]);
  const auto nz = static_cast<std::uint32_t>(box.extent[2]);
  ColumnRuns runs{(nx + kTileX - 1) / kTileX, (ny + kTileY - 1) / kTileY, 1, 0};
  runs.run = column_run(runs.tiles(), nz, groups, max_run);
  runs.runs_z = (nz + runs.run - 1) / runs.run;
  return runs;
}

// sweep_box in columns of tiles: member m takes the cell at (m % 32, m / 32 % 8) of column runs
// m / 256, m / 256 + members / 256, ... (tiles in x, then in y, then runs up z), and walks up
// its run (update_column). Members in any other number than a multiple of kTileCells (the host
// team, a small GPU block) sweep as sweep_box does.
template <class Real>
HF_HD inline void sweep_box_in_tiles(StencilKind kind, const SweepFields<Real>& fields,
                                     const haloflag::kernels::Box& box, std::int64_t member,
                                     std::int64_t members) {
  if (members % kTileCells != 0) {
    sweep_box(kind, fields, box, member, members);
    return;
  }
  const auto nx = static_cast<std::uint32_t>(box.extent[0]);
  const auto ny = static_cast<std::uint32_t>(box.extent[1]);
  const auto nz = static_cast<std::uint32_t>(box.extent[2]);
  const auto groups = static_cast<std::uint32_t>(members / kTileCells);
  const ColumnRuns runs = column_runs(box, groups);
  const std::uint32_t tiles_x = runs.tiles_x;
  const std::uint32_t tiles_y = runs.tiles_y;
  const std::uint32_t run = runs.run;
  const std::uint32_t runs_z = runs.runs_z;
  const auto first = static_cast<std::uint32_t>(member / kTileCells);
  if (first >= runs.count()) return;
  // The first column and the step to the next split into (x, y, z) once, then stepped with a
  // carry per axis, as sweep_box does: no division per column.
  std::uint32_t run_z = first / (tiles_x * tiles_y);
  std::uint32_t tile_y = (first - run_z * tiles_x * tiles_y) / tiles_x;
  std::uint32_t tile_x = first - run_z * tiles_x * tiles_y - tile_y * tiles_x;
  const std::uint32_t step_z = groups / (tiles_x * tiles_y);
  const std::uint32_t step_y = (groups - step_z * tiles_x * tiles_y) / tiles_x;
  const std::uint32_t step_x = groups - step_z * tiles_x * tiles_y - step_y * tiles_x;
  const auto lane = static_cast<std::uint32_t>(member % kTileCells);
  const std::uint32_t lane_x = lane % kTileX;
  const std::uint32_t lane_y = lane / kTileX;
  while (run_z < runs_z) {
    const std::uint32_t x = tile_x * kTileX + lane_x;
    const std::uint32_t y = tile_y * kTileY + lane_y;
    const std::uint32_t z = run_z * run;
    if (x < nx && y < ny) {
      update_column(kind, fields,
                    (box.begin[2] + z) * fields.stride_z + (box.begin[1] + y) * fields.stride_y +
                        box.begin[0] + x,
                    nz - z < run ? nz - z : run);
    }
    tile_x += step_x;
    tile_y += step_y;
    run_z += step_z;
    if (tile_x >= tiles_x) {
      tile_x -= tiles_x;
      ++tile_y;
    }
    if (tile_y >= tiles_y) {
      tile_y -= tiles_y;
      ++run_z;
    }
  }
}

// Lane `lane` (0 to kTileCells - 1) of column run `item` of `box`: its cell of the run's tile,
// walked up the run (update_column); a lane past the box's edge has nothing to do.
template <class Real>
HF_HD inline void update_run_lane(StencilKind kind, const SweepFields<Real>& fields,
                                  const haloflag::kernels::Box& box, const ColumnRuns& runs,
                                  std::uint32_t item, std::uint32_t lane) {
  const std::uint32_t run_z = item / runs.tiles();
  const std::uint32_t tile = item - run_z * runs.tiles();
  const std::uint32_t tile_y = tile / runs.tiles_x;
  const std::uint32_t x = (tile - tile_y * runs.tiles_x) * kTileX + lane % kTileX;
  const std::uint32_t y = tile_y * kTileY + lane / kTileX;
  const std::uint32_t z = run_z * runs.run;
  if (x >= box.extent[0] || y >= box.extent[1]) return;
  const auto planes = static_cast<std::uint32_t>(box.extent[2]) - z;
  update_column(kind, fields,
                (box.begin[2] + z) * fields.stride_z + (box.begin[1] + y) * fields.stride_y +
                    box.begin[0] + x,
                planes < runs.run ? planes : runs.run);
}

// The cells of column run `item` of `box`, as a box of their own.
HF_HD inline haloflag::kernels::Box run_box(const haloflag::kernels::Box& box,
                                            const ColumnRuns& runs, std::uint32_t item) {
  const std::uint32_t run_z = item / runs.tiles();
  const std::uint32_t tile = item - run_z * runs.tiles();
  const std::uint32_t tile_y = tile / runs.tiles_x;
  const std::int64_t first[3] = {std::int64_t{tile - tile_y * runs.tiles_x} * kTileX,
                                 std::int64_t{tile_y} * kTileY, std::int64_t{run_z} * runs.run};
  const std::int64_t most[3] = {kTileX, kTileY, runs.run};
  haloflag::kernels::Box part{};
  for (int axis = 0; axis < 3; ++axis) {
    part.begin[axis] = box.begin[axis] + first[axis];
    const std::int64_t left = box.extent[axis] - first[axis];
    part.extent[axis] = left < most[axis] ? left : most[axis];
  }
  return part;
}

// Every cell of `count` boxes, laid end to end and shared out as one: a grid with more members
// than cells then has every cell's loads in flight at once, where box after box would wait for
// memory once per box. Each box hands the member's next cell on to the one after it: no
// remainder per box, which a GPU computes in software for 64-bit numbers (two per box cost the
// boundary layer's kernel most of its time).
template <class Real>
HF_HD inline void sweep_boxes(StencilKind kind, const SweepFields<Real>& fields,
                              const haloflag::kernels::Box* boxes, int count, std::int64_t member,
                              std::int64_t members) {
  std::int64_t next = member;  // the member's first cell in boxes[b]
  for (int b = 0; b < count; ++b) next = sweep_box(kind, fields, boxes[b], next, members);
}

}  // namespace jacobi3d
