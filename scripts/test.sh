#!/usr/bin/env bash
# Runs the whole test suite: sets up first when a dependency or the build is missing, builds
# what changed, then runs CTest. Extra arguments go to ctest (e.g. -R engine).
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
