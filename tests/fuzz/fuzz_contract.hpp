// The contract every reader fuzz target checks (docs/reliability.md): an input is either
// accepted, and then the result is self-consistent, or rejected with the reader's documented
// exception carrying a non-empty message for every problem. Anything else (another exception
// type, an empty message, a crash, a hang) is a finding: the target prints why and aborts, so
// libFuzzer saves the input as a crash artifact and the replay test fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include "haloflag/halo/errors.hpp"

namespace haloflag::fuzz {

// The source name readers are given, so messages can be checked to name their place.
inline constexpr std::string_view kSourceName = "fuzz-input";

[[noreturn]] inline void contract_broken(const std::string& why) {
  std::fprintf(stderr, "fuzz contract broken: %s\n", why.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void require(bool condition, const std::string& why) {
  if (!condition) contract_broken(why);
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return size == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data), size);
}

// Every problem of a rejection is non-empty and names the input it is about.
inline void check_rejection(const halo::ProblemListError& error) {
  require(!error.problems().empty(), "rejected with an empty problem list");
  require(std::string_view(error.what()).size() > 0, "rejected with an empty message");
  for (const std::string& problem : error.problems()) {
    require(problem.starts_with(kSourceName) && problem.size() > kSourceName.size() + 2,
            "problem without its source or reason: '" + problem + "'");
  }
}

// Runs `parse` (which returns the parsed value) and hands an accepted value to `check_accepted`.
// `Rejection` is the reader's documented exception type.
template <class Rejection, class Parse, class CheckAccepted>
void check_reader(Parse parse, CheckAccepted check_accepted) {
  std::optional<decltype(parse())> accepted;
  try {
    accepted.emplace(parse());
  } catch (const Rejection& error) {
    check_rejection(error);
  } catch (const std::exception& error) {
    contract_broken(std::string("undocumented exception ") + typeid(error).name() + ": " +
                    error.what());
  } catch (...) {
    contract_broken("an exception that is not a std::exception");
  }
  if (!accepted) return;
  try {
    check_accepted(*accepted);
  } catch (const std::exception& error) {  // e.g. the writer failing on what the reader accepted
    contract_broken(std::string("checking an accepted input threw ") + typeid(error).name() +
                    ": " + error.what());
  }
}

// For the self-consistency checks: `parse` must succeed (e.g. reading back what the writer wrote
// from an accepted input); any exception is a finding, reported with `what`.
template <class Parse>
auto must_accept(Parse parse, const std::string& what) -> decltype(parse()) {
  try {
    return parse();
  } catch (const std::exception& error) {
    contract_broken(what + " failed: " + error.what());
  }
}

}  // namespace haloflag::fuzz
