#!/bin/sh
# Rewrites every shipped config in this folder with the built generator.
#
#   comb_configs/regenerate.sh [path/to/haloflag_gen_config]
#
# Default generator: build/comb_configs/haloflag_gen_config under the repository root. The test
# comb_gen_config_cli_test re-runs the arguments recorded in each file and compares, so a file
# edited by hand or a generator change that alters the output does not go unnoticed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
gen=${1:-"$here/../build/comb_configs/haloflag_gen_config"}
if [ ! -x "$gen" ]; then
  echo "regenerate.sh: generator '$gen' not found or not executable; build it or pass its path" >&2
  exit 1
fi

paper="--periodic 1,1,1 --ghost 1 --vars 3"  # the paper's runs: Table 2 sizes on 4x4x4 ranks

for cube in 200 400 800; do
  # 64 ranks, 26 messages each: the configurations of the paper's Fig. 12.
  "$gen" --size "$cube" --divide 4,4,4 $paper --output "$here/comb_${cube}_np64.cfg"
  # Two ranks replaying interior rank 21 (coordinates 1,1,1): the down-scaled runs of Fig. 14.
  "$gen" --size "$cube" --divide 4,4,4 $paper --reduce-to-2-ranks 21 \
    --output "$here/comb_${cube}_np2_reduced.cfg"
  # Rank 21 replayed by 4 and 8 ranks, each message to the peer rank XOR mask(direction): the
  # same subdomain per rank as on two, so runs on 2, 4 and 8 GPUs compare weak scaling.
  for ranks in 4 8; do
    "$gen" --size "$cube" --divide 4,4,4 $paper --reduce-to-ranks "$ranks" --reduce-rank 21 \
      --output "$here/comb_${cube}_np${ranks}_reduced.cfg"
  done
done

# Small full decompositions that the MPI tests run at their own rank counts.
"$gen" --size 200 --ranks 4 $paper --output "$here/comb_200_np4.cfg"
"$gen" --size 200 --ranks 8 $paper --output "$here/comb_200_np8.cfg"

echo "regenerated the configs in $here"
