// The resident kernel (resident_iterations.hpp) run asynchronously, as the examples'
// ResidentKernel of this example's ResidentLaunch: a cooperative GPU grid (gpu_jacobi.hpp), or on
// the host backend a team of CPU threads. Real is the field's element type (float or double).
#pragma once

#include "haloflag/examples/resident_kernel.hpp"
#include "resident_launch.hpp"

namespace jacobi3d {

using haloflag::examples::ResidentOutcome;
template <class Real>
using ResidentKernel = haloflag::examples::ResidentKernel<ResidentLaunch<Real>>;

}  // namespace jacobi3d
