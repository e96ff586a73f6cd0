// Internal: what the Exchange's set-up has learnt so far, as every transport's set-up steps read
// and fill it (exchange_transport.hpp). The set-up owns it; it goes when the set-up ends.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <set>
#include <vector>

#include "exchange_resources.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "message_names.hpp"
#include "timeline_recorder.hpp"
#include "wire_origin.hpp"

namespace haloflag::halo::detail {

struct TransportSetUp {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  const ExchangeConfig& config;
  // As given, with long_message_bytes resolved before the first step.
  const ExchangeOptions& options;
  const RankMessages& configured;  // this rank's messages as the config gives them, whole

  // Runs a step on every rank and agrees on its outcome (every rank throws if one failed):
  // a transport's collective steps go through it, so that no rank waits for one that failed.
  std::function<void(const char* what, const std::function<void()>& step)> agree;

  // Learnt before the messages are laid out: the ranks of this rank's node (this rank
  // included), and how many of them share its GPU.
  std::set<int> node_ranks;
  int gpu_sharers = 1;

  // What moves, in the config's order; a transport that cuts messages replaces it, with the
  // origin of each moved message (whole by default).
  RankMessages moved;
  std::vector<WireOrigin> send_origins;
  std::vector<WireOrigin> recv_origins;

  // Made by the set-up once the messages are laid out; the kernel runner once the plan holds
  // every device route.
  ExchangeResources* resources = nullptr;
  TimelineRecorder* timeline = nullptr;
  const MessageNames* names = nullptr;
  kernels::KernelRunner* runner = nullptr;

  // Filled once every transport has joined the piece grid: the messages it carries, which the
  // per-message blocks (and so MPI) need not.
  std::vector<bool> sends_in_pieces;
  std::vector<bool> recvs_in_pieces;
};

}  // namespace haloflag::halo::detail
