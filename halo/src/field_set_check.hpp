// The check a FieldSet passes before any kernel reads it.
#pragma once

#include <string>

#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo::detail {

// `fields` with its alignment computed, once it has as many variables as the messages carry, no
// null base, each variable's element size the config's, and strides that keep every cell of a
// field of `extent` cells apart (positive, none smaller than the element, each axis past the
// span of the axes with smaller strides). Throws ConfigError naming `who` and the variable.
kernels::FieldSet checked_field_set(const kernels::FieldSet& fields, const MessageLayouts& layouts,
                                    const Index3& extent, const std::string& who);

// Both sets address the same memory in the same way.
bool same_field_set(const kernels::FieldSet& a, const kernels::FieldSet& b);

}  // namespace haloflag::halo::detail
