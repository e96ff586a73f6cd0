// The field's element type, float (the peer's default) or double (--precision): the examples'
// shared Precision (haloflag/examples/precision.hpp), named here as jacobi2d's own.
#pragma once

#include "haloflag/examples/precision.hpp"

namespace jacobi2d {

using haloflag::examples::element_bytes;
using haloflag::examples::Precision;
using haloflag::examples::precision_from_name;
using haloflag::examples::to_string;
using haloflag::examples::with_real;

}  // namespace jacobi2d
