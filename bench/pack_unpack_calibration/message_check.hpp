// The correctness pass before timing: a timed pack must have put the field's cells into the
// buffer, a timed unpack the buffer's values into the field's cells. The expected values come
// from the same pack function run on the host over a host copy of the field.
#pragma once

#include <cstddef>
#include <string>

#include "haloflag/halo/host_field.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::bench {

// Every cell of every variable gets a value no other cell has (positive integers).
void fill_distinct(halo::HostField& field);

// Fills a message buffer with values no field cell has (negative), distinct per `salt`.
void fill_message(std::byte* buffer, std::size_t bytes, int salt);

// Throws std::runtime_error naming `what` and the first wrong element when the message of
// `layout` packed from `field` differs from `buffer`.
void check_message(const kernels::MessageLayout& layout, const halo::HostField& field,
                   const std::byte* buffer, const std::string& what);

}  // namespace haloflag::bench
