// The resident kernel (resident_steps.hpp) run asynchronously, as the examples' ResidentKernel of
// this example's ResidentLaunch: a cooperative GPU grid (gpu_jacobi2d.hpp), or on the host
// backend a team of CPU threads. launch() returns at once; the caller drives the exchange's host
// side and follows the norms, then calls wait().
#pragma once

#include "haloflag/examples/resident_kernel.hpp"
#include "resident_launch.hpp"

namespace jacobi2d {

using haloflag::examples::ResidentOutcome;
template <class Real>
using ResidentKernel = haloflag::examples::ResidentKernel<ResidentLaunch<Real>>;

}  // namespace jacobi2d
