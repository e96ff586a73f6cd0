// The field's element type, float (the peer's default) or double (--precision): the examples'
// shared Precision (haloflag/examples/precision.hpp), named here as jacobi2d's own.
#pragma once

#include "haloflag/examples/precision.hpp"

namespace jacobi2d {

using namespace haloflag::examples::field_precision;

}  // namespace jacobi2d
