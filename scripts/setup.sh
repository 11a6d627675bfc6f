#!/usr/bin/env bash
# Installs every Debian package placesim needs, then configures build/ (Release) and builds
# build/placesim with its modules. Idempotent: installed packages are skipped, and a configured build is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
while read -r pkg; do
  [[ -z "$pkg" || "$pkg" == \#* ]] && continue
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < scripts/packages.txt

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

jobs=${PLACESIM_JOBS:-2}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >&2
# The binary and its modules only: the quickstart needs nothing more, and scripts/test.sh builds
# the tests and benchmarks when it runs.
cmake --build build -j"$jobs" --target placesim >&2
echo "setup: built build/placesim (scripts/test.sh builds the tests)" >&2

# The Python module (docs/python.md), for Debian's Python: build/python goes on its path through
# a .pth file in the user's site-packages, so `/usr/bin/python3 -c "import placesim"` works from
# any folder.
if grep -q '^PLACESIM_WITH_PYTHON:BOOL=ON' build/CMakeCache.txt; then
  cmake --build build -j"$jobs" --target placesim_python >&2
  site=$(/usr/bin/python3 -c 'import site; print(site.getusersitepackages())')
  mkdir -p "$site"
  echo "$PWD/build/python" >"$site/placesim.pth"
  echo "setup: built the Python module: /usr/bin/python3 -c 'import placesim' (path set in $site/placesim.pth)" >&2
fi
