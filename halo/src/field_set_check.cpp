#include "field_set_check.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "haloflag/halo/errors.hpp"

namespace haloflag::halo::detail {

namespace {

// The messages' variable count and element sizes (every layout of a rank has the same).
const kernels::MessageLayout* any_layout(const MessageLayouts& layouts) {
  if (!layouts.sends.empty()) return &layouts.sends.front();
  if (!layouts.recvs.empty()) return &layouts.recvs.front();
  return nullptr;
}

void check_strides(const kernels::VariableView& view, const Index3& extent,
                   const std::string& where) {
  static constexpr const char* kAxis[3] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (view.stride[axis] < view.element_bytes) {
      throw ConfigError(where + ": its " + kAxis[axis] + " stride of " +
                        std::to_string(view.stride[axis]) +
                        " bytes is smaller than its element of " +
                        std::to_string(view.element_bytes) + " bytes");
    }
  }
  std::array<int, 3> axes{0, 1, 2};
  std::sort(axes.begin(), axes.end(),
            [&](int a, int b) { return view.stride[a] < view.stride[b]; });
  for (int i = 1; i < 3; ++i) {
    const int inner = axes[static_cast<std::size_t>(i - 1)];
    const int outer = axes[static_cast<std::size_t>(i)];
    const std::int64_t span = view.stride[inner] * extent[inner];
    if (view.stride[outer] < span) {
      throw ConfigError(where + ": its " + kAxis[outer] + " stride of " +
                        std::to_string(view.stride[outer]) + " bytes is smaller than the " +
                        std::to_string(span) + " bytes its " + std::to_string(extent[inner]) +
                        " cells along " + kAxis[inner] +
                        " span, so cells overlap (a row pitch shorter than the row?)");
    }
  }
}

}  // namespace

kernels::FieldSet checked_field_set(const kernels::FieldSet& fields, const MessageLayouts& layouts,
                                    const Index3& extent, const std::string& who) {
  const kernels::MessageLayout* layout = any_layout(layouts);
  const int needed = layout != nullptr ? layout->variable_count : 0;
  if (fields.variable_count < needed || fields.variable_count > kernels::kMaxVariables) {
    throw ConfigError(who + ": the messages carry " + std::to_string(needed) +
                      " variables, the fields have " + std::to_string(fields.variable_count) +
                      " (at most " + std::to_string(kernels::kMaxVariables) + ")");
  }
  for (int v = 0; v < fields.variable_count; ++v) {
    const kernels::VariableView& view = fields.variables[v];
    const std::string where = who + ": field variable " + std::to_string(v);
    if (view.base == nullptr) throw ConfigError(where + " is a null pointer");
    if (v < needed && view.element_bytes != layout->element_bytes[v]) {
      throw ConfigError(where + " has " + std::to_string(view.element_bytes) +
                        "-byte elements, but the config's messages carry " +
                        std::to_string(layout->element_bytes[v]) +
                        "-byte elements for it (MessageData/GeometrySpec element_bytes, "
                        "variable_bytes)");
    }
    check_strides(view, extent, where);
  }
  kernels::FieldSet checked = fields;
  checked.alignment = kernels::alignment_of(fields);
  return checked;
}

bool same_field_set(const kernels::FieldSet& a, const kernels::FieldSet& b) {
  if (a.variable_count != b.variable_count) return false;
  for (int v = 0; v < a.variable_count; ++v) {
    const kernels::VariableView& x = a.variables[v];
    const kernels::VariableView& y = b.variables[v];
    if (x.base != y.base || x.element_bytes != y.element_bytes ||
        !std::equal(x.stride, x.stride + 3, y.stride)) {
      return false;
    }
  }
  return true;
}

}  // namespace haloflag::halo::detail
