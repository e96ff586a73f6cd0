// The CLI11 classes that option headers name only by reference or pointer. Such a header
// includes this instead of <CLI/CLI.hpp>: CLI11 is header-only and slow to compile, so only the
// files that build or parse a command line include it.
#pragma once

namespace CLI {
class App;
class Option;
}  // namespace CLI
