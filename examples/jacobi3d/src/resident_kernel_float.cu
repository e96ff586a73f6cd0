// The resident kernel's forms for float fields (resident_kernel.hpp).
#include "resident_kernel_forms.hpp"

namespace jacobi3d {
JACOBI3D_RESIDENT_KERNEL_FORMS(float);
}  // namespace jacobi3d
