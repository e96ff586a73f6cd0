// _core.dlpack_view: reads an array through DLPack (JAX, PyTorch CPU tensors, anything with
// __dlpack__) for haloflag/arrays.py, which reads NumPy and __cuda_array_interface__ arrays
// itself. The array is only inspected: its memory stays the caller's.
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "bindings.hpp"

namespace nb = nanobind;

namespace haloflag::python {

void bind_dlpack_view(nb::module_& module) {
  module.def("dlpack_view", [](nb::ndarray<> array) {
    const nb::dlpack::dtype type = array.dtype();
    const std::int64_t itemsize = (static_cast<std::int64_t>(type.bits) * type.lanes + 7) / 8;
    std::vector<std::int64_t> shape, strides;
    for (std::size_t axis = 0; axis < array.ndim(); ++axis) {
      shape.push_back(static_cast<std::int64_t>(array.shape(axis)));
      strides.push_back(array.stride(axis) * itemsize);  // DLPack counts strides in elements
    }
    const bool cpu = array.device_type() == nb::device::cpu::value;
    return std::make_tuple(reinterpret_cast<std::uintptr_t>(array.data()), itemsize, shape, strides,
                           cpu, array.device_id());
  });
}

}  // namespace haloflag::python
