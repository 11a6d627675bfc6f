#!/usr/bin/env bash
# Runs the whole test suite: sets up first when a dependency or the build is missing, builds
# what changed, then runs CTest. Extra arguments go to ctest (e.g. -R engine).
#
# Then the sanitizer stage (PLACESIM_SANITIZE=0 skips it, for quick local runs; CI runs it): a
# second tree, build-asan/, built with clang, AddressSanitizer and UBSan (any finding aborts the
# test), runs the tests not labelled slow (tests/CMakeLists.txt says which are, and why).
set -euo pipefail
cd "$(dirname "$0")/.."

need_setup=0
while read -r pkg; do
  [[ -z "$pkg" || "$pkg" == \#* ]] && continue
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need_setup=1
done < scripts/packages.txt
[[ -f build/CMakeCache.txt ]] || need_setup=1
((need_setup)) && scripts/setup.sh

jobs=${PLACESIM_JOBS:-2}
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" "$@"

[[ "${PLACESIM_SANITIZE:-1}" == 0 ]] && exit 0
# -O1: a third less to compile than -O2, and the tests run at close to its speed; -g1: line
# numbers in the reports. No CUDA (no GPU in CI), no MPI (Open MPI's own allocations would be
# reported as leaks), no benchmarks.
[[ -f build-asan/CMakeCache.txt ]] ||
  cmake -S . -B build-asan -DPLACESIM_SANITIZE=ON -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DPLACESIM_BUILD_BENCH=OFF \
    -DPLACESIM_WITH_CUDA=OFF -DPLACESIM_WITH_MPI=OFF >&2
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE slow "$@"

# One scenario's traces hash identically from both trees, gcc -O3 and clang -O1 with sanitizers:
# what is simulated does not depend on the compiler or its optimisations. The quickstart's MILP
# is left out: its time limit makes its plan depend on the machine's speed.
trace_hash() {
  local dir hash
  dir=$(mktemp -d)
  "$1"/placesim run scenarios/quickstart.yaml --set 'placers=[single-device, heft, deepplan, megatron-tp]' \
    --trace "$dir/traces" -o "$dir/quickstart.h5" >/dev/null || return 1
  hash=$(cat "$dir"/traces/*.json | sha256sum) || return 1
  rm -rf "$dir"
  echo "$hash"
}
release=$(trace_hash build)
sanitized=$(trace_hash build-asan)
[[ "$release" == "$sanitized" ]] ||
  { echo "scripts/test.sh: the quickstart's traces differ between build/ and build-asan/" >&2; exit 1; }
echo "quickstart traces identical in build/ and build-asan/: ${release%% *}"
