// Test support for the fault-injection and handshake tests: runs a step that should end in an
// ExchangeError and keeps its message and how long the step took, and says how an error names
// one message (the text the engine's errors must contain).
#pragma once

#include <chrono>
#include <string>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_config.hpp"

namespace haloflag::test {

struct ExchangeFailure {
  bool thrown = false;
  std::string message;  // what() of the ExchangeError, "" when none was thrown
  double seconds = 0;   // from the call to the throw (or the return)
  ErrorKind kind = ErrorKind::other;  // the ExchangeError's kind
};

template <class Step>
ExchangeFailure failure_of(Step step) {
  ExchangeFailure failure;
  const auto started = std::chrono::steady_clock::now();
  try {
    step();
  } catch (const halo::ExchangeError& error) {
    failure.thrown = true;
    failure.message = error.what();
    failure.kind = error.kind();
  }
  failure.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return failure;
}

// The start of the engine's name for a message, up to its byte count: "receive from peer 1
// tag 3 (640 bytes" or "send to peer 1 tag 3 (640 bytes". The direction follows, for configs
// built from a geometry (", from +x)" or ", towards -x)").
inline std::string receive_name(const halo::Message& m) {
  return "receive from peer " + std::to_string(m.peer) + " tag " + std::to_string(m.tag) + " (" +
         std::to_string(m.bytes) + " bytes";
}

inline std::string send_name(const halo::Message& m) {
  return "send to peer " + std::to_string(m.peer) + " tag " + std::to_string(m.tag) + " (" +
         std::to_string(m.bytes) + " bytes";
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace haloflag::test
