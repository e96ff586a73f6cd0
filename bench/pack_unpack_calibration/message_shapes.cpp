#include "message_shapes.hpp"

#include <algorithm>
#include <exception>
#include <set>
#include <stdexcept>
#include <utility>

#include "haloflag/bench/display_path.hpp"
#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/message_layouts.hpp"

namespace haloflag::bench {

namespace {

std::string box_extents(const kernels::MessageLayout& layout) {
  std::string text;
  for (int b = 0; b < layout.box_count; ++b) {
    if (b > 0) text += '+';
    const kernels::Box& box = layout.boxes[b];
    text += halo::format_triple(halo::Index3{box.extent[0], box.extent[1], box.extent[2]}, 'x');
  }
  return text;
}

// The first layout of every shape, in message order.
std::vector<MessageShape> distinct_shapes(const std::vector<kernels::MessageLayout>& layouts) {
  std::vector<MessageShape> shapes;
  std::set<std::string> seen;
  for (kernels::MessageLayout layout : layouts) {
    MessageShape shape;
    shape.boxes = box_extents(layout);
    if (!seen.insert(shape.boxes).second) continue;
    layout.place_at(0);
    shape.layout = layout;
    shape.bytes = layout.bytes();
    shapes.push_back(shape);
  }
  return shapes;
}

ShapeSource source_of(std::string name, const halo::Index3& field_extent, int vars,
                      const halo::MessageLayouts& layouts) {
  ShapeSource source;
  source.name = std::move(name);
  source.field_extent = field_extent;
  source.vars = vars;
  source.packs = distinct_shapes(layouts.sends);
  source.unpacks = distinct_shapes(layouts.recvs);
  return source;
}

// What identifies a shape across sources: the field and the box extents.
std::string shape_key(const ShapeSource& source, const MessageShape& shape) {
  return halo::format_triple(source.field_extent, 'x') + "/" + std::to_string(source.vars) + "/" +
         shape.boxes;
}

}  // namespace

ShapeSource shapes_of_config(const std::string& path) {
  const std::string name = display_path(path) + " rank 0";
  try {
    const halo::ExchangeConfig config = halo::read_config_file(path);
    const halo::MessageLayouts layouts = halo::make_message_layouts(config, 0);
    // make_message_layouts has checked that the field extent and the data record are there.
    return source_of(name, *config.rank_messages.at(0).field_extent, config.data->vars, layouts);
  } catch (const std::exception& error) {
    throw std::invalid_argument("--config " + display_path(path) + ": " + error.what());
  }
}

CubeHalo cube_halo(std::int64_t side, int vars, const std::string& option) {
  try {
    halo::GeometrySpec spec;
    spec.global_size = {side, side, side};
    spec.ranks = 1;
    spec.divide = halo::RankGrid{1, 1, 1};
    spec.periodic = {true, true, true};
    spec.vars = vars;
    const halo::Geometry geometry(spec);
    return {side, geometry.subdomain(0).field_extent, vars,
            halo::make_message_layouts(geometry, 0)};
  } catch (const std::exception& error) {
    throw std::invalid_argument(option + " " + std::to_string(side) + ": " + error.what());
  }
}

ShapeSource shapes_of_cube(std::int64_t side, int vars) {
  const CubeHalo cube = cube_halo(side, vars, "--cubes");
  return source_of("cube " + std::to_string(side), cube.field_extent, vars, cube.layouts);
}

std::vector<ShapeSource> collect_shapes(const std::vector<std::string>& configs,
                                        const std::vector<std::int64_t>& cubes, int vars) {
  std::vector<ShapeSource> sources;
  for (const std::string& path : configs) sources.push_back(shapes_of_config(path));
  for (const std::int64_t side : cubes) sources.push_back(shapes_of_cube(side, vars));

  std::set<std::string> packs_seen;
  std::set<std::string> unpacks_seen;
  for (ShapeSource& source : sources) {
    std::erase_if(source.packs, [&](const MessageShape& shape) {
      return !packs_seen.insert(shape_key(source, shape)).second;
    });
    std::erase_if(source.unpacks, [&](const MessageShape& shape) {
      return !unpacks_seen.insert(shape_key(source, shape)).second;
    });
  }
  std::erase_if(sources, [](const ShapeSource& source) {
    return source.packs.empty() && source.unpacks.empty();
  });
  return sources;
}

std::vector<std::int64_t> sizes_of(const std::vector<ShapeSource>& sources) {
  std::set<std::int64_t> sizes;
  for (const ShapeSource& source : sources) {
    for (const MessageShape& shape : source.packs) sizes.insert(shape.bytes);
    for (const MessageShape& shape : source.unpacks) sizes.insert(shape.bytes);
  }
  return {sizes.begin(), sizes.end()};
}

void keep_sizes(std::vector<ShapeSource>& sources, const std::vector<std::int64_t>& sizes) {
  if (sizes.empty()) return;
  const std::vector<std::int64_t> found = sizes_of(sources);
  for (const std::int64_t size : sizes) {
    if (std::find(found.begin(), found.end(), size) != found.end()) continue;
    std::string list;
    for (const std::int64_t bytes : found) {
      if (!list.empty()) list += ',';
      list += std::to_string(bytes);
    }
    throw std::invalid_argument("--sizes " + std::to_string(size) +
                                ": no message of the configs and cubes has this size (sizes "
                                "there: " + list + ")");
  }
  const auto unwanted = [&](const MessageShape& shape) {
    return std::find(sizes.begin(), sizes.end(), shape.bytes) == sizes.end();
  };
  for (ShapeSource& source : sources) {
    std::erase_if(source.packs, unwanted);
    std::erase_if(source.unpacks, unwanted);
  }
  std::erase_if(sources, [](const ShapeSource& source) {
    return source.packs.empty() && source.unpacks.empty();
  });
}

}  // namespace haloflag::bench
