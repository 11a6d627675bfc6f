#!/usr/bin/env bash
# scripts/setup.sh builds only what the quickstart needs (issue: the set-up once built every test
# and benchmark before the binary the first command runs). Runs a copy of the set-up with cmake
# and dpkg-query replaced by stand-ins that log their arguments, and checks what it built: the
# program first, then the Python module, and never a build without a target (which is "all").
set -euo pipefail
source_dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/repo/scripts" "$tmp/bin"
cp "$source_dir/scripts/setup.sh" "$source_dir/scripts/packages.txt" "$tmp/repo/scripts/"
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
printf 'install ok installed'
STUB
cat >"$tmp/bin/cmake" <<'STUB'
#!/bin/sh
echo "$*" >>"$CMAKE_LOG"
# The configure step leaves a cache saying the Python module is on, as a machine with
# pybind11 gets.
if [ "$1" = "-S" ]; then mkdir -p build && echo 'PLACESIM_WITH_PYTHON:BOOL=ON' >build/CMakeCache.txt; fi
STUB
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/cmake"

export CMAKE_LOG=$tmp/cmake.log PYTHONUSERBASE=$tmp/userbase
PATH="$tmp/bin:$PATH" bash "$tmp/repo/scripts/setup.sh" 2>"$tmp/stderr" || {
  cat "$tmp/stderr"
  echo "FAIL: setup.sh exited non-zero" >&2
  exit 1
}

fail=0
builds=$(grep -- '--build' "$CMAKE_LOG" || true)
expected="--build build -j2 --target placesim
--build build -j2 --target placesim_python"
if [[ "$builds" != "$expected" ]]; then
  printf 'FAIL: setup.sh built\n%s\nexpected\n%s\n' "$builds" "$expected" >&2
  fail=1
fi
pth=$(find "$tmp/userbase" -name placesim.pth)
if [[ -z "$pth" || "$(cat "$pth")" != "$tmp/repo/build/python" ]]; then
  echo "FAIL: placesim.pth missing or not pointing at build/python: '${pth:-none}'" >&2
  fail=1
fi
((fail == 0)) && echo "setup.sh built the program, then the Python module, nothing else"
exit $fail
