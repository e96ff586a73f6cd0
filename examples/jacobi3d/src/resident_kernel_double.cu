// The resident kernel's forms for double fields (resident_kernel.hpp).
#include "resident_kernel_forms.hpp"

namespace jacobi3d {
JACOBI3D_RESIDENT_KERNEL_FORMS(double);
}  // namespace jacobi3d
