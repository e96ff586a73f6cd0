// C++ exceptions become Python exceptions of haloflag.errors, chosen by ErrorKind, so Python code
// catches the same kinds that C++ code does.
#include <stdexcept>
#include <string>
#include <string_view>

#include "bindings.hpp"
#include "haloflag/error.hpp"

namespace nb = nanobind;

namespace haloflag::python {
namespace {

void raise_as(ErrorKind kind, const char* what) {
  // Looked up at raise time: haloflag.errors is pure Python and imports nothing of ours.
  const std::string_view name = to_string(kind);
  nb::object cls = nb::module_::import_("haloflag.errors").attr("class_of_kind")(
      nb::str(name.data(), name.size()));
  PyErr_SetString(cls.ptr(), what);
}

}  // namespace

void register_error_translation(nb::module_& /*module*/) {
  nb::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const Error& e) {
      raise_as(e.kind(), e.what());
    } catch (const std::invalid_argument& e) {
      // The library's parse_* functions refuse unknown names this way (kind usage, kind_of).
      raise_as(kind_of(e), e.what());
    }
  });
}

}  // namespace haloflag::python
