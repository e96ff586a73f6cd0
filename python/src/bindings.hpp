// The pieces of the _core extension module, each defined in its own file and called once by
// module.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace haloflag::python {

/// Translates haloflag's C++ exceptions into the classes of haloflag.errors.
void register_error_translation(nanobind::module_& module);
/// _core.Geometry: a decomposition in the library's (x, y, z) order.
void bind_geometry(nanobind::module_& module);
/// _core.FieldSet: the variables of one field, built from raw addresses and byte strides.
void bind_field_set(nanobind::module_& module);
/// _core.dlpack_view: pointer, shape and strides of any DLPack array.
void bind_dlpack_view(nanobind::module_& module);
/// _core.bind_gpu and _core.gpu_backend: which GPU a rank uses, and the build's GPU backend.
void bind_gpu_functions(nanobind::module_& module);
/// _core.Exchange and _core.Handle.
void bind_exchange(nanobind::module_& module);

}  // namespace haloflag::python
