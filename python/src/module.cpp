// The extension module haloflag._core. The Python package (python/haloflag) checks and converts
// the user's arguments; this module only binds the C++ library.
#include "bindings.hpp"

NB_MODULE(_core, module) {
  // Exchanges left open at exit are closed by the package's atexit hook, not destroyed here;
  // nanobind's leak report would only list those harmless shells.
  nanobind::set_leak_warnings(false);
  haloflag::python::register_error_translation(module);
  haloflag::python::bind_geometry(module);
  haloflag::python::bind_field_set(module);
  haloflag::python::bind_dlpack_view(module);
  haloflag::python::bind_gpu_functions(module);
  haloflag::python::bind_exchange(module);
}
