#!/usr/bin/env bash
# Interference figures on a GPU machine (the paper's section 4.3, Figs. 6-11): the time of one
# MPI_Send of a pinned host buffer while the GPU writes pinned host memory, per scenario (SSB,
# PSB, PCB, P2AB, stream and stacked access, concurrent copies) and buffer size.
#   scripts/figures/figures_interference.sh [OUT_DIR] [interference options...]
# OUT_DIR defaults to docs/results/<machine>/<UTC date> (scripts/figures/figures_common.sh names the
# machine); the run lands in OUT_DIR/interference/ as scripts/bench/bench_interference.sh writes it
# (interference.md, interference_{stream,stacked,slowdown}.png, machine.txt, build.log,
# interference.txt), with the report gzipped (interference.json.gz, every sample) as
# docs/results/ keeps it. Redraw from it: gunzip -k interference.json.gz, then
# scripts/figures/plot_interference.py interference.json OUT_DIR/interference.
# Environment: HALOFLAG_RESULTS_TAR (also pack OUT_DIR/interference into this .tar.gz),
# HALOFLAG_RESULTS_MACHINE, and HALOFLAG_BUILD_DIR, HALOFLAG_GPU, HALOFLAG_MPIEXEC_ARGS as for
# bench_interference.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/figures/figures_common.sh
source "$root/scripts/figures/figures_common.sh"
figures_resolve_out "$root" "$@"
shift "$figures_shift"
out=$figures_out/interference

figures_step 1 2 "interference (Figs. 6-11): $out"
status=0
"$root/scripts/bench/bench_interference.sh" "$out" "$@" || status=$?
# bench_interference.sh packs its own tarball for direct use; here the folder is the result.
rm -f "$out/interference_results.tar.gz"
[[ -f $out/interference.json ]] && gzip -f "$out/interference.json"

figures_step 2 2 "figures in $out${HALOFLAG_RESULTS_TAR:+; $HALOFLAG_RESULTS_TAR}"
figures_tar "$out"
exit "$status"
