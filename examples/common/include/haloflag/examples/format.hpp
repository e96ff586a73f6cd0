// A number as the stencil examples' tables and check messages print it: the text printf's
// `pattern` ("%.2f", "%-11.2f", "%.2e") makes of `value`.
#pragma once

#include <cstdio>
#include <string>

namespace haloflag::examples {

inline std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

}  // namespace haloflag::examples
