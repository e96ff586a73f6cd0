// The halo messages whose pack and unpack are timed: the distinct message shapes of
// communication configs (rank 0's sends and receives) and of cube subdomains (a periodic cube
// of side L on one rank: 8 corners, 12 edges, 6 faces), grouped by the field they live in.
// Two messages have the same shape when their boxes have the same extents in a field of the same
// extent and variable count; only the first of each is kept: packing the other faces of one
// orientation costs the same.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::bench {

struct MessageShape {
  kernels::MessageLayout layout;  // buffer_offset 0: the message has its buffer to itself
  std::int64_t bytes = 0;
  std::string boxes;              // box extents, e.g. "1x50x50" or "50x1x1+1x50x1"
};

// One field and the shapes timed in it.
struct ShapeSource {
  std::string name;  // e.g. "comb_configs/comb_200_np2_reduced.cfg rank 0" or "cube 64"
  halo::Index3 field_extent{0, 0, 0};
  int vars = 1;
  std::vector<MessageShape> packs;    // from the sends
  std::vector<MessageShape> unpacks;  // from the receives
};

// The periodic cube subdomain of side L on one rank (ghost width 1): its field and all 26 sends
// and receives, each at its offset in one send and one receive buffer.
struct CubeHalo {
  std::int64_t side = 0;
  halo::Index3 field_extent{0, 0, 0};
  int vars = 1;
  halo::MessageLayouts layouts;
};

// Throws std::invalid_argument naming `option` and the side when the geometry rejects the cube.
CubeHalo cube_halo(std::int64_t side, int vars, const std::string& option);

// Both throw std::invalid_argument naming the file or the cube: an unreadable or invalid config,
// one without boxes, a field extent or a data record, a cube the geometry rejects.
ShapeSource shapes_of_config(const std::string& path);
ShapeSource shapes_of_cube(std::int64_t side, int vars);

// The sources of the options, with every shape already seen in an earlier source dropped, and
// sources left empty removed.
std::vector<ShapeSource> collect_shapes(const std::vector<std::string>& configs,
                                        const std::vector<std::int64_t>& cubes, int vars);

// Keeps only shapes of the given sizes (all when `sizes` is empty). Throws std::invalid_argument
// naming a size no message has, with the sizes there are.
void keep_sizes(std::vector<ShapeSource>& sources, const std::vector<std::int64_t>& sizes);

// Distinct message sizes of the sources, increasing.
std::vector<std::int64_t> sizes_of(const std::vector<ShapeSource>& sources);

}  // namespace haloflag::bench
