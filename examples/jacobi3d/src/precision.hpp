// The field's element type, float or double (--precision): the examples' shared Precision
// (haloflag/examples/precision.hpp), named here as jacobi3d's own. Everything that touches field
// values (the cell update, the sweeps, the buffers, the resident kernel, the reference) is a
// template on that type, `Real`.
#pragma once

#include "haloflag/examples/precision.hpp"

namespace jacobi3d {

using haloflag::examples::element_bytes;
using haloflag::examples::Precision;
using haloflag::examples::precision_from_name;
using haloflag::examples::to_string;
using haloflag::examples::with_real;

}  // namespace jacobi3d
