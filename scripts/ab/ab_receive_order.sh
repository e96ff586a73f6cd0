#!/usr/bin/env bash
# A/B of the flag strategies' receive orders on a 2-GPU machine: halo_bench on one 2-rank config,
# every receive posted first and long receives on arrival in alternation (scripts/ab/ab_variants.sh
# with those two variants). With HALOFLAG_BASE_BUILD_DIR (a build of another tree), that tree's
# halo_bench runs first in each round: a before/after A/B.
#
# Usage: scripts/ab/ab_receive_order.sh OUT_DIR
# Environment: as scripts/ab/ab_variants.sh (HALOFLAG_CUBE, HALOFLAG_AB_ROUNDS, HALOFLAG_BUILD_DIR,
#   HALOFLAG_BASE_BUILD_DIR, HALOFLAG_AB_ITERATIONS, HALOFLAG_AB_STRATEGIES, Open MPI's own
#   variables); the variants are fixed.
set -euo pipefail
transport=${OMPI_MCA_btl_vader_single_copy_mechanism:-default}
cube=${HALOFLAG_CUBE:-200}
export HALOFLAG_AB_VARIANTS="${transport}_${cube}_posted-first: --long-receives posted-first
${transport}_${cube}_on-arrival: --long-receives on-arrival"
exec "$(dirname "$0")/ab_variants.sh" "$@"
