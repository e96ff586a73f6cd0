// Chooses the order of work for tune() (haloflag/halo/tune.hpp), and keeps the Exchange
// constructor from being asked to tune.
#pragma once

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/tuning.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo::detail {

// The report of an Exchange that was not tuned.
TuningReport fixed_tuning(const ExchangeOptions& options);

// ConfigError naming this rank in options.comm when options.tuning is automatic: the
// constructor runs the options as given, and tuning is tune()'s or Exchange::tuned()'s to do.
void refuse_automatic_tuning(const ExchangeOptions& options);

// Collective over options.comm. Sets up a fixed Exchange for each candidate order, times a few
// exchanges of `fields` with it (the owned cells are read, the ghost cells written), and writes
// the fastest order into `options` (the slowest rank's median decides, so every rank chooses the
// same). A candidate that cannot be set up is skipped with its reason.
TuningReport tune_work_order(const ExchangeConfig& config, const kernels::FieldSet& fields,
                             ExchangeOptions& options);

}  // namespace haloflag::halo::detail
