/// @file
/// The ownership of one resource (an allocation, a mapping, a registration), written once: the
/// destructor and the move operations that every owner of memory in the library needs.
#pragma once

#include <utility>

namespace haloflag::notify {

/// Owns what `State` holds: movable, not copyable. `State` is a plain struct whose
/// value-initialised form holds nothing, and whose `release()` frees what it holds (nothing when
/// empty). A moved-from owner holds nothing; an assignment first frees what the target held.
template <class State>
class UniqueResource {
 public:
  UniqueResource() = default;
  /// Takes over what `state` holds.
  explicit UniqueResource(const State& state) noexcept : state_(state) {}
  ~UniqueResource() { state_.release(); }
  /// Takes over what `other` held; `other` holds nothing after.
  UniqueResource(UniqueResource&& other) noexcept : state_(std::exchange(other.state_, State{})) {}
  /// Frees what this held, then takes over what `other` held.
  UniqueResource& operator=(UniqueResource&& other) noexcept {
    if (this != &other) {
      state_.release();
      state_ = std::exchange(other.state_, State{});
    }
    return *this;
  }
  UniqueResource(const UniqueResource&) = delete;
  UniqueResource& operator=(const UniqueResource&) = delete;

  /// What is held.
  const State& get() const noexcept { return state_; }

 private:
  State state_{};
};

}  // namespace haloflag::notify
