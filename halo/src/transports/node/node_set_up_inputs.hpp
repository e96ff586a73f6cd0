// Internal: what the node transport's set-up is given (docs/design.md, "The node transport"),
// handed to the set-up steps of each of its parts, which read it and keep none of it.
#pragma once

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "message_names.hpp"

namespace haloflag::halo::detail {

struct NodeSetUpInputs {
  const RankMessages& messages;
  const MessageLayouts& layouts;
  const kernels::FieldSet& fields;  // the first FieldSet: slot 0
  const ExchangeOptions& options;
  const MessageNames& names;
};

}  // namespace haloflag::halo::detail
