#!/usr/bin/env bash
# Builds one libFuzzer target (fuzz/TARGET.cpp) with clang, AddressSanitizer and UBSan in its
# own tree (build-fuzz/, apart from build/) and runs it for SECONDS, seeded from the
# repository's inputs of that format. Usage: scripts/fuzz.sh yaml|graph|plan|onnx|results SECONDS [libFuzzer flags]
# A crash leaves its input in build-fuzz/crashes/TARGET/; replay it with
# build-fuzz/fuzz/fuzz_TARGET FILE. The corpus grown so far is kept in build-fuzz/corpus/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 2 ]]; then
  echo "usage: scripts/fuzz.sh yaml|graph|plan|onnx|results SECONDS [libFuzzer flags]" >&2
  exit 2
fi
target=$1 seconds=$2 extra=()
shift 2
case "$target" in
  yaml) seeds=(scenarios hw/presets tests/golden tests/bad_inputs/scenario tests/bad_inputs/hardware tests/bad_inputs/fixtures) ext=yaml ;;
  graph) seeds=(tests/golden tests/bad_inputs/graph tests/bad_inputs/fixtures) ext=json ;;
  plan) seeds=(tests/bad_inputs/plan tests/bad_inputs/fixtures) ext=json ;;
  onnx) seeds=(tests/models/data tests/bad_inputs/onnx) ext=onnx ;;
  # A damaged results file can make HDF5 ask for gigabytes in the child that reads it (placesim's
  # guard: sim/core/child_call.hpp); libFuzzer's per-malloc limit would report the child's
  # request as the input's fault, so only the parent's RSS is limited.
  results) seeds=(results tests/bad_inputs/results) ext=h5 extra=(-malloc_limit_mb=1048576) ;;
  *) echo "scripts/fuzz.sh: unknown target '$target' (expected yaml, graph, plan, onnx or results)" >&2; exit 2 ;;
esac

cxx=${PLACESIM_FUZZ_CXX:-clang++-14}
cc=${PLACESIM_FUZZ_CC:-clang-14}
command -v "$cxx" >/dev/null || { echo "scripts/fuzz.sh: $cxx not found (apt-get install clang-14)" >&2; exit 2; }
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
  -DPLACESIM_FUZZ=ON -DPLACESIM_BUILD_TESTS=OFF -DPLACESIM_BUILD_BENCH=OFF -DPLACESIM_WITH_CUDA=OFF \
  -DPLACESIM_WITH_MPI=OFF >/dev/null
cmake --build build-fuzz -j"${PLACESIM_JOBS:-2}" --target "fuzz_$target"

# The seeds: the repository's files of the target's format, copied flat into a fresh seed folder.
seed_dir=build-fuzz/seeds/$target corpus=build-fuzz/corpus/$target crashes=build-fuzz/crashes/$target
rm -rf "$seed_dir"
mkdir -p "$seed_dir" "$corpus" "$crashes"
find "${seeds[@]}" -type f -name "*.$ext" | while read -r f; do cp "$f" "$seed_dir/$(echo "$f" | tr / _)"; done

exec build-fuzz/fuzz/"fuzz_$target" "$corpus" "$seed_dir" -max_total_time="$seconds" -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "${extra[@]}" "$@"
