// Which node receives come through the receiver's buffer where the sender could place them
// directly (halo/src/transports/node/node_placement): decided from the rows the message's cells
// form in the receiver's fields, for dense, padded and interleaved variables of 1 to 16 bytes,
// and from the message's size; and which peers' messages come in lines (peer_takes_lines).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "haloflag/kernels/field_set.hpp"
#include "transports/node/node_placement.hpp"

namespace {

namespace hh = haloflag::halo;
namespace hk = haloflag::kernels;

// A message of one box with extents (x, y, z) and `variables` variables of `bytes` bytes.
hk::MessageLayout box_message(std::int64_t x, std::int64_t y, std::int64_t z, int variables,
                              int bytes) {
  hk::MessageLayout layout{};
  layout.box_count = 1;
  layout.boxes[0] = {{1, 1, 1}, {x, y, z}};
  layout.set_variables(variables, bytes);
  return layout;
}

// `variables` variables of `bytes` bytes, each with x stride `x_stride` bytes.
hk::FieldSet fields_of(int variables, int bytes, std::int64_t x_stride) {
  hk::FieldSet fields;
  fields.variable_count = variables;
  for (int v = 0; v < variables; ++v) {
    fields.variables[v].stride[0] = x_stride;
    fields.variables[v].stride[1] = x_stride * 100;
    fields.variables[v].stride[2] = x_stride * 100 * 100;
    fields.variables[v].element_bytes = bytes;
  }
  return fields;
}

TEST(NodePlacement, RowsAreTheXExtentOfDenseVariablesAndOneElementOfInterleavedOnes) {
  for (const int bytes : {1, 2, 4, 8, 12, 16}) {
    SCOPED_TRACE(bytes);
    const hk::FieldSet dense = fields_of(2, bytes, bytes);  // dense or padded: x stride 1 element
    const hk::FieldSet interleaved = fields_of(2, bytes, 2 * bytes);
    EXPECT_EQ(hh::detail::shortest_row_bytes(box_message(1, 50, 50, 2, bytes), dense), bytes);
    EXPECT_EQ(hh::detail::shortest_row_bytes(box_message(50, 1, 50, 2, bytes), dense), 50 * bytes);
    EXPECT_EQ(hh::detail::shortest_row_bytes(box_message(50, 50, 1, 2, bytes), interleaved),
              bytes);
  }
}

TEST(NodePlacement, TheShortestRowOfAnyBoxAndVariableDecides) {
  hk::MessageLayout two_boxes = box_message(40, 1, 40, 1, 8);
  two_boxes.box_count = 2;
  two_boxes.boxes[1] = {{1, 1, 1}, {3, 1, 40}};
  two_boxes.set_variables(1, 8);
  EXPECT_EQ(hh::detail::shortest_row_bytes(two_boxes, fields_of(1, 8, 8)), 24);
  hk::FieldSet mixed = fields_of(2, 8, 8);
  mixed.variables[1].stride[0] = 16;  // the second variable interleaved
  EXPECT_EQ(hh::detail::shortest_row_bytes(box_message(40, 1, 40, 2, 8), mixed), 8);
}

TEST(NodePlacement, ByShapeTakesLargeShortRowMessagesThroughTheBuffer) {
  const hk::FieldSet fields = fields_of(1, 8, 8);
  const hk::MessageLayout x_face = box_message(1, 400, 400, 1, 8);   // 1.28 MB, rows of 8 B
  const hk::MessageLayout y_face = box_message(400, 1, 400, 1, 8);   // rows of 3200 B
  const hk::MessageLayout small_x = box_message(1, 32, 32, 1, 8);    // 8 KiB
  const hk::MessageLayout rows_of_56 = box_message(7, 400, 400, 1, 8);
  const hk::MessageLayout rows_of_64 = box_message(8, 400, 400, 1, 8);
  const std::int64_t from = 1 << 20;
  using hh::NodePlacement;
  EXPECT_TRUE(hh::detail::receive_through_buffer(x_face, fields, NodePlacement::by_shape, from));
  EXPECT_FALSE(hh::detail::receive_through_buffer(y_face, fields, NodePlacement::by_shape, from));
  EXPECT_FALSE(hh::detail::receive_through_buffer(small_x, fields, NodePlacement::by_shape, from));
  EXPECT_TRUE(hh::detail::receive_through_buffer(rows_of_56, fields, NodePlacement::by_shape, from));
  EXPECT_FALSE(hh::detail::receive_through_buffer(rows_of_64, fields, NodePlacement::by_shape, from));
  // The size from which it applies: exactly the message's bytes, or 0 for every short-row one.
  EXPECT_TRUE(hh::detail::receive_through_buffer(small_x, fields, NodePlacement::by_shape, 8192));
  EXPECT_FALSE(hh::detail::receive_through_buffer(small_x, fields, NodePlacement::by_shape, 8193));
  EXPECT_TRUE(hh::detail::receive_through_buffer(small_x, fields, NodePlacement::by_shape, 0));
  // direct and buffered decide alike for every message.
  for (const hk::MessageLayout& m : {x_face, y_face, small_x}) {
    EXPECT_FALSE(hh::detail::receive_through_buffer(m, fields, NodePlacement::direct, 0));
    EXPECT_TRUE(hh::detail::receive_through_buffer(m, fields, NodePlacement::buffered, from));
  }
}

// Lines: every element a multiple of 4 bytes, all of a peer's messages within the limit, a
// strategy whose kernels move pieces; 0 turns them off.
TEST(NodeLines, APeerTakesLinesOnlyWhenEveryRuleHolds) {
  const std::vector<hk::MessageLayout> doubles{box_message(8, 8, 1, 1, 8), box_message(1, 8, 8, 1, 8)};
  const std::int64_t bytes = doubles[0].bytes() + doubles[1].bytes();
  EXPECT_TRUE(hh::detail::peer_takes_lines(doubles, hh::Strategy::resident, bytes));
  EXPECT_TRUE(hh::detail::peer_takes_lines(doubles, hh::Strategy::embedded, bytes));
  EXPECT_TRUE(hh::detail::peer_takes_lines(doubles, hh::Strategy::stream_notify, bytes));
  EXPECT_TRUE(hh::detail::peer_takes_lines(doubles, hh::Strategy::stacked_notify, bytes));
  EXPECT_FALSE(hh::detail::peer_takes_lines(doubles, hh::Strategy::resident, bytes - 1))
      << "the limit is for all of the peer's messages together";
  EXPECT_FALSE(hh::detail::peer_takes_lines(doubles, hh::Strategy::resident, 0));
  for (const hh::Strategy bulk :
       {hh::Strategy::comb_fused, hh::Strategy::comb_graph, hh::Strategy::stream_base}) {
    EXPECT_FALSE(hh::detail::peer_takes_lines(doubles, bulk, bytes)) << hh::to_string(bulk);
  }
  EXPECT_FALSE(hh::detail::peer_takes_lines({}, hh::Strategy::resident, bytes));
  const int mixed_bytes[] = {8, 2};
  hk::MessageLayout mixed = box_message(8, 8, 1, 1, 8);
  mixed.set_variables(2, mixed_bytes);
  EXPECT_FALSE(hh::detail::peer_takes_lines({mixed}, hh::Strategy::resident, bytes))
      << "a 2-byte variable would cut a word between two pieces";
  EXPECT_TRUE(hh::detail::peer_takes_lines({box_message(5, 3, 1, 1, 12)}, hh::Strategy::resident,
                                           bytes));
}

TEST(NodePlacement, NamesParseBack) {
  for (const hh::NodePlacement p : {hh::NodePlacement::by_shape, hh::NodePlacement::direct,
                                    hh::NodePlacement::buffered}) {
    EXPECT_EQ(hh::parse_node_placement(hh::to_string(p)), p);
  }
  EXPECT_THROW((void)hh::parse_node_placement("scattered"), std::invalid_argument);
}

}  // namespace
