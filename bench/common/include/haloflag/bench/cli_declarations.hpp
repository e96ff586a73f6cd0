// The CLI11 classes that option headers name only by reference or pointer. Such a header
// includes this instead of <CLI/CLI.hpp>: CLI11 is header-only, and every file that includes it
// takes about 8 s more to compile, so only the files that build or parse a command line do.
#pragma once

namespace CLI {
class App;
class Option;
}  // namespace CLI
