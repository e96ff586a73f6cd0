// The resident kernel and its forms, for the source file of one field type to instantiate
// (resident_kernel.hpp) through JACOBI3D_RESIDENT_KERNEL_FORMS.
#pragma once

#include "haloflag/examples/gpu_threads.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "resident_iterations.hpp"
#include "resident_kernel.hpp"

namespace jacobi3d {

namespace {

// kWholeExchange: ResidentLaunch::whole_exchange, one kernel per form; kLines: the embedded
// API's build, two for the whole exchange; kSendsUpdate: the whole exchange's sends update the
// cells they send, built without lines only (resident_iterations); kStaged: the interior walked
// through shared memory (staged_run.hpp), built for the sending-update form only.
template <class Real, bool kWholeExchange, haloflag::kernels::LinesCode kLines,
          bool kSendsUpdate = false, bool kStaged = false>
__global__ void __launch_bounds__(haloflag::examples::kMaxGpuThreads)
    resident_kernel(ResidentLaunch<Real> launch) {
  (void)resident_iterations<kWholeExchange, kLines, kSendsUpdate, kStaged>(
      haloflag::kernels::ThreadBlockGroup{}, haloflag::kernels::CooperativeGridGroup{},
      blockIdx.x, gridDim.x, launch);
}

}  // namespace

template <class Real>
const void* resident_kernel_of(bool whole_exchange, haloflag::kernels::LinesCode lines,
                               bool sends_update, bool staged) {
  using haloflag::kernels::LinesCode;
  if (!whole_exchange) {
    return reinterpret_cast<const void*>(resident_kernel<Real, false, LinesCode::present>);
  }
  if (lines == LinesCode::present) {
    return reinterpret_cast<const void*>(resident_kernel<Real, true, LinesCode::present>);
  }
  if (!sends_update) {
    return reinterpret_cast<const void*>(resident_kernel<Real, true, LinesCode::absent>);
  }
  if (staged) {
    return reinterpret_cast<const void*>(
        resident_kernel<Real, true, LinesCode::absent, true, true>);
  }
  return reinterpret_cast<const void*>(resident_kernel<Real, true, LinesCode::absent, true>);
}

}  // namespace jacobi3d

// Every form of the resident kernel for Real, and resident_kernel_of<Real>, instantiated in the
// source file that names it (at namespace jacobi3d). Each kernel is instantiated explicitly, in
// its unnamed namespace: hipcc emits a template kernel's host stub only there, not where its
// address is taken.
#define JACOBI3D_RESIDENT_KERNEL_FORMS(Real)                                                       \
  namespace {                                                                                      \
  using haloflag::kernels::LinesCode;                                                              \
  template __global__ void resident_kernel<Real, false, LinesCode::present>(ResidentLaunch<Real>); \
  template __global__ void resident_kernel<Real, true, LinesCode::present>(ResidentLaunch<Real>);  \
  template __global__ void resident_kernel<Real, true, LinesCode::absent>(ResidentLaunch<Real>);   \
  template __global__ void resident_kernel<Real, true, LinesCode::absent, true>(                   \
      ResidentLaunch<Real>);                                                                       \
  template __global__ void resident_kernel<Real, true, LinesCode::absent, true, true>(             \
      ResidentLaunch<Real>);                                                                       \
  }                                                                                                \
  template const void* resident_kernel_of<Real>(bool, haloflag::kernels::LinesCode, bool, bool)
