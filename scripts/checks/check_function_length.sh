#!/usr/bin/env bash
# No function over 80 lines in halo/, persistent_kernels/ and libnotify/ (docs/design.md, Layers):
# lizard measures each function's length (its lines from first to last, blank and comment lines
# included) in the C++ and the CUDA/HIP sources, and this script fails, listing them, when any is
# longer. Only the length counts: lizard's other thresholds (cyclomatic complexity, lines of
# code, parameters) are set out of reach.
#   scripts/checks/check_function_length.sh      run by CI (.ci/run); exit status 1 on a long function
# lizard: the one scripts/setup.sh --all installs in .tools/lizard/, else the one on PATH.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
max_lines=80
directories=(halo persistent_kernels libnotify)

lizard=$root/.tools/lizard/bin/lizard
if [[ ! -x $lizard ]]; then
  lizard=$(command -v lizard) || {
    echo "check_function_length: lizard not found: run scripts/setup.sh --all (or pip install lizard)" >&2
    exit 2
  }
fi

# lizard finds .cu files only when they are named: every source is named, and a named file whose
# extension no reader claims is read as C/C++.
mapfile -t sources < <(find "${directories[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' \
  -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' -o -name '*.hip' \) | sort)

# lizard leaves out a function marked "#lizard forgive" and the rest of a file after a comment
# saying "GENERATED CODE": neither may hide a long function here.
if grep -n -e '#lizard forgive' -e 'GENERATED CODE' "${sources[@]}"; then
  echo "check_function_length: the comments above would hide functions from lizard" >&2
  exit 1
fi

# -w: the over-long functions only; lizard exits 1 when there is any.
if ! "$lizard" -w -L "$max_lines" -C 100000 -a 100000 -T nloc=100000000 "${sources[@]}"; then
  echo "check_function_length: the functions above are longer than $max_lines lines; split them" >&2
  exit 1
fi
echo "check_function_length: ${#sources[@]} files, no function over $max_lines lines"
