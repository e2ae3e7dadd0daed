#!/usr/bin/env bash
# The layering rule, checked on the source: each folder includes only the layers below it
# (harness/CMakeLists.txt draws them), and only the CUDA-side layers include a CUDA header.
# Also: cases/ launch kernels only through launch_kernel() (no <<<>>>, no last-error reads).
# Prints each include that breaks the rule and exits 1; exits 0 when none does.
set -uo pipefail
root="${1:-$(dirname "$0")/..}"
cd "$root" || exit 2

declare -A allowed=(
  [model]="model"
  [callback]="callback model"
  [protocol]="protocol model"
  [cuda]="cuda callback model hostcb"
  [exec]="exec protocol callback model"
  [runner]="runner protocol cuda callback model"
  [cases]="cases runner protocol cuda callback model"
  [repro]="repro model"
  [reports]="reports model"
  [matrix]="matrix reports model"
  [app]="app repro matrix reports exec runner cases protocol cuda callback model"
)
cuda_layers=" cuda runner cases app "

bad=0
for layer in "${!allowed[@]}"; do
  case "$layer" in
    cases | reports | matrix) dir="$layer" ;;
    *) dir="harness/$layer" ;;
  esac
  [ -d "$dir" ] || { echo "check_layers: no folder $dir" >&2; exit 2; }
  while IFS= read -r hit; do
    file="${hit%%:*}"
    rest="${hit#*:}"; line="${rest%%:*}"; text="${rest#*:}"
    if [[ "$text" =~ \#include\ \"([a-z_]+)/ ]]; then
      target="${BASH_REMATCH[1]}"
      if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
        echo "$file:$line: $layer may not include $target/ (allowed: ${allowed[$layer]})"
        bad=1
      fi
    elif [[ "$text" =~ \#include\ \<(cuda[A-Za-z_]*\.h|cuda\.h|nvml\.h)\> ]]; then
      if [[ "$cuda_layers" != *" $layer "* ]]; then
        echo "$file:$line: $layer may not include a CUDA header (<${BASH_REMATCH[1]}>)"
        bad=1
      fi
    elif [[ "$text" =~ \#include\ \"[^/]+\" ]]; then
      echo "$file:$line: include with its layer folder (\"layer/file.hpp\"), not a bare name"
      bad=1
    fi
  done < <(grep -nE '^\s*#\s*include' -r "$dir" --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' | sed -E 's/#\s*include/#include/')
done
# A scenario checks its kernel launches by their own return codes (cuda/kernel_launch.hpp):
# cudaGetLastError() after <<<>>> would also return an error an earlier scenario left.
while IFS= read -r hit; do
  echo "$hit: launch kernels with launch_kernel(), not <<<>>> and cudaGetLastError()"
  bad=1
done < <(grep -nE '<<<|cudaGetLastError|cudaPeekAtLastError' -r cases --include='*.cu' --include='*.cuh' --include='*.cpp' --include='*.hpp')
if [ "$bad" = 0 ]; then echo "check_layers: every include goes down; cases check kernel launches by their own codes"; fi
exit "$bad"
