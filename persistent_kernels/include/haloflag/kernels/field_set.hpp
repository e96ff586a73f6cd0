// The variables of one field: one base pointer per variable, each an array of doubles laid out
// with the strides a MessageLayout names. Fixed capacity and plain pointers so it can be passed
// to a kernel by value.
#pragma once

#include <type_traits>

#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::kernels {

inline constexpr int kMaxVariables = 16;

struct FieldSet {
  Element* variables[kMaxVariables];  // only the first variable_count are used
  int variable_count;
};

static_assert(std::is_trivially_copyable_v<FieldSet>);

}  // namespace haloflag::kernels
