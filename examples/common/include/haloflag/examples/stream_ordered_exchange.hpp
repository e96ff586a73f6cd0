// The exchange of a stream variant: halo::Strategy::resident over both fields, started and
// waited for on the variant's stream (start(stream, fields), wait(stream)), so that the host
// waits once per run. A run abandoned by an exception may leave the stream waiting for exchanges
// that will never complete; the variant's destructor then calls release_abandoned_run(), which
// aborts the exchange (releasing those waits) and drains the stream before either goes.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>

#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/work_stream.hpp"

namespace haloflag::examples {

class StreamOrderedExchange {
 public:
  // Collective over `comm`: the Exchange of field 0 with field 1 mapped too (the node senders
  // place into both fields' ghost cells, before the first exchange), settings.progress running
  // its MPI peers' side, and message blocks of settings.gpu_threads threads.
  StreamOrderedExchange(const haloflag::halo::Geometry& geometry,
                        const haloflag::kernels::FieldSet& field0,
                        const haloflag::kernels::FieldSet& field1, MPI_Comm comm,
                        const VariantSettings& settings);

  // A run from begin_run() to end_run(); between them the variant orders its steps on its
  // stream.
  void begin_run() { running_ = true; }
  // One step ordered on `stream`: `update_boundary()` (the cells the exchange sends), the start
  // of the exchange of `written` (the exchange packs once the stream reaches it),
  // `update_interior()` while the messages fly, and the wait for the exchange; without
  // `exchanged`, the updates alone.
  template <class UpdateBoundary, class UpdateInterior>
  void step(const haloflag::notify::WorkStream& stream, const haloflag::kernels::FieldSet& written,
            UpdateBoundary update_boundary, UpdateInterior update_interior, bool exchanged = true) {
    update_boundary();
    if (exchanged) exchange_->start(stream, written);
    update_interior();
    if (exchanged) exchange_->wait(stream);
  }
  // With caller progress, runs the MPI peers' side (while the host follows something else).
  void progress() { (void)exchange_->progress(); }
  // The run's one host wait: finish() when the run exchanged, then `drain` (the stream
  // synchronized).
  void end_run(bool exchanged, const std::function<void()>& drain);

  // For the variant's destructor: when a run began and did not end, aborts the exchange and
  // calls `drain`, dropping its error (the run's own has been reported already).
  void release_abandoned_run(const std::function<void()>& drain);

  // "exchange resident, stream-ordered, thread progress: <the kernels' launch>".
  std::string describe() const;

 private:
  haloflag::halo::Progress progress_;
  std::unique_ptr<haloflag::halo::Exchange> exchange_;
  bool running_ = false;
};

}  // namespace haloflag::examples
