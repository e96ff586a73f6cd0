/// @file
/// Tuning of the orders of work, apart from the Exchange: tune() times the candidate orders on
/// this machine and transport and returns fixed options with the fastest, which any number of
/// Exchanges can then be built with (Exchange::tuned() does both). The constructor never tunes,
/// so that setting up an Exchange costs one set-up and never a search the caller did not see
/// (docs/exchange.md, "Tuning at set-up").
///
///   halo::TunedOptions tuned = halo::tune(config, fields, options);   // collective
///   halo::Exchange exchange(config, fields, tuned.options);
///   std::cout << tuned.report.summary() << '\n';
#pragma once

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/tuning.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo {

/// What tune() chose: the options to build an Exchange with, and how they were chosen.
struct TunedOptions {
  /// The given options with `tuning = Tuning::fixed` and the chosen order of work applied
  /// (set_work_order(options, report.chosen)): an Exchange built with them runs that order.
  ExchangeOptions options;
  /// Every candidate measured and the one chosen; `tuned` is false, with the reason, when the
  /// strategy or its peers leave nothing to choose.
  TuningReport report;
};

/// Times each order of work that applies to `options.strategy` and this rank's peers (receive
/// and long-send orders, blocks per long receive, MPI piece sizes, the node grid's shapes) over
/// a few exchanges of `fields` with a temporary Exchange each, and returns the fastest by the
/// slowest rank's median; the given order stands unless another beats it by kTuningMargin.
/// Every rank chooses the same. The owned cells are read and the ghost cells written.
/// `options.tuning` is not read: calling tune() is the request. Collective over options.comm;
/// throws ExchangeError, on every rank, when the given options cannot be set up.
TunedOptions tune(const ExchangeConfig& config, const kernels::FieldSet& fields,
                  const ExchangeOptions& options);
/// The same on the messages of `geometry` (make_exchange_config). Collective over options.comm.
TunedOptions tune(const Geometry& geometry, const kernels::FieldSet& fields,
                  const ExchangeOptions& options);

}  // namespace haloflag::halo
