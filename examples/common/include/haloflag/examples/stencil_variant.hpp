// One way of running a stencil example's iterations with a halo exchange after each (a
// conventional loop, the stream-ordered loop, the resident kernel...), as its program runs,
// checks and times them: each owns two fields on its backend, one read and one written per step.
// `Kind` is the example's enum of its variants; each example adds how its result is read back.
#pragma once

#include <string>

namespace haloflag::examples {

template <class VariantKind>
class StencilVariant {
 public:
  using Kind = VariantKind;
  virtual ~StencilVariant() = default;
  virtual Kind kind() const = 0;
  // Puts the initial field (ghosts included) into both fields.
  virtual void reset() = 0;
  // Runs `iterations` steps from the current field; returns this rank's seconds for the whole
  // run (the host's steady clock; the resident kernel's run on a GPU measured by GPU events).
  // Throws on any failure.
  virtual double run(int iterations) = 0;
  // The update alone, for the update-rate report: `iterations` steps of the variant's updates as
  // run() runs them, with every exchange left out, timed as run() is. The ghost cells are not
  // refreshed, so the field is no longer the solution afterwards: reset() before a checked run.
  virtual double run_updates_only(int iterations) = 0;
  // Kernel shapes and exchange strategy, for the report.
  virtual std::string launch_description() const = 0;
};

}  // namespace haloflag::examples
