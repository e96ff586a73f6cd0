// The resident kernel's forms as the host launches them. Each form is compiled for float in
// resident_kernel_float.cu and for double in resident_kernel_double.cu (resident_kernel_forms.hpp):
// the ten forms are most of the example's GPU compile, and two files build side by side.
#pragma once

#include "haloflag/kernels/transports/node/node_lines.hpp"

namespace jacobi3d {

// The resident kernel of `whole_exchange`'s form and, for the whole exchange, of `lines`' build,
// with sends that update their cells where `sends_update` asks and the build has no lines (as
// HostResidentIterations chooses), and of those the one with the staged walk where `staged`.
template <class Real>
const void* resident_kernel_of(
    bool whole_exchange, haloflag::kernels::LinesCode lines = haloflag::kernels::LinesCode::present,
    bool sends_update = false, bool staged = false);

extern template const void* resident_kernel_of<float>(bool, haloflag::kernels::LinesCode, bool,
                                                      bool);
extern template const void* resident_kernel_of<double>(bool, haloflag::kernels::LinesCode, bool,
                                                       bool);

}  // namespace jacobi3d
