#!/usr/bin/env bash
# Installs every Debian package placesim needs, then configures and builds it in Release
# (build/). Idempotent: installed packages are skipped, and a configured build is reused.
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
cmake --build build -j"$jobs" >&2
echo "setup: built build/placesim" >&2
