#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/deps/apt-packages.txt that
# are missing. Idempotent: with everything present it only checks, in about
# a second, and never calls apt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/scripts/deps/apt-packages.txt"
mapfile -t wanted < <(grep -v '^\s*#' "$list" | sed 's/\s.*//' | grep -v '^$')
missing=()
for p in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing ${#missing[@]} missing Debian packages: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "error: installing packages needs root (run as root, or install them: ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
