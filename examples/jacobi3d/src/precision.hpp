// The field's element type, float or double (--precision): the examples' shared Precision
// (haloflag/examples/precision.hpp), named here as jacobi3d's own. Everything that touches field
// values (the cell update, the sweeps, the buffers, the resident kernel, the reference) is a
// template on that type, `Real`.
#pragma once

#include "haloflag/examples/precision.hpp"

namespace jacobi3d {

using namespace haloflag::examples::field_precision;

}  // namespace jacobi3d
