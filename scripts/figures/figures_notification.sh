#!/usr/bin/env bash
# Notification figures on a GPU machine: the paper's Table 1 (one read + one write of a flag in
# pinned host memory, CPU side and GPU side) beside the flag round trip, one-way latencies and
# kernel launch + synchronise of the same run.
#   scripts/figures/figures_notification.sh [OUT_DIR] [notify_latency options...]
# OUT_DIR defaults to docs/results/<machine>/<UTC date> (scripts/figures/figures_common.sh names the
# machine); the run lands in OUT_DIR/notify_latency/ as scripts/bench/bench_notify_latency.sh writes
# it (notify_latency.md: the tables; machine.txt; build.log; notify_latency.txt), with the report
# gzipped (notify_latency.json.gz, every sample) as docs/results/ keeps it.
# Environment: HALOFLAG_RESULTS_TAR (also pack OUT_DIR/notify_latency into this .tar.gz),
# HALOFLAG_RESULTS_MACHINE, and HALOFLAG_BUILD_DIR, HALOFLAG_GPU as for bench_notify_latency.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/figures/figures_common.sh
source "$root/scripts/figures/figures_common.sh"
figures_resolve_out "$root" "$@"
shift "$figures_shift"
out=$figures_out/notify_latency

figures_step 1 2 "notify_latency (Table 1): $out"
"$root/scripts/bench/bench_notify_latency.sh" "$out" "$@"
gzip -f "$out/notify_latency.json"

figures_step 2 2 "tables in $out/notify_latency.md${HALOFLAG_RESULTS_TAR:+; $HALOFLAG_RESULTS_TAR}"
figures_tar "$out"
