#!/usr/bin/env bash
# Installs the ONNX Runtime shared library (1.30.0, linux x64) that
# pkg/onnxrt loads, and prints its path.
#
# The library comes from the npm tarball onnxruntime-node@1.30.0
# (package/bin/napi-v6/linux/x64/libonnxruntime.so.1), fetched with
# `npm pack --ignore-scripts` (or with curl from the npm registry when npm is
# missing), checked against a pinned sha256 and cached under
# .cache/onnxruntime/. Idempotent: when the cached file is there with the
# right checksum it only prints the path. Make targets should test the
# file's existence, not its age (npm tarballs carry 1985 timestamps).
set -euo pipefail

version=1.30.0
want=ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23
member=package/bin/napi-v6/linux/x64/libonnxruntime.so.1

root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/onnxruntime"
lib="$dir/libonnxruntime.so.1"

sum() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$lib" && "$(sum "$lib")" == "$want" ]]; then
	echo "$lib"
	exit 0
fi

mkdir -p "$dir"
tmp=$(mktemp -d "$dir/tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tgz="$tmp/onnxruntime-node-$version.tgz"
if command -v npm >/dev/null 2>&1; then
	echo "fetching onnxruntime-node@$version with npm pack (about 113 MB)" >&2
	(cd "$tmp" && npm pack --ignore-scripts --silent "onnxruntime-node@$version" >/dev/null)
else
	echo "npm not found: fetching onnxruntime-node@$version from the npm registry with curl" >&2
	curl -fsSL --retry 3 -o "$tgz" "https://registry.npmjs.org/onnxruntime-node/-/onnxruntime-node-$version.tgz"
fi
if [[ ! -f "$tgz" ]]; then
	echo "error: npm pack did not produce $(basename "$tgz")" >&2
	exit 1
fi

tar -xzf "$tgz" -C "$tmp" "$member"
got=$(sum "$tmp/$member")
if [[ "$got" != "$want" ]]; then
	echo "error: $member has sha256 $got, want $want" >&2
	exit 1
fi
chmod 0644 "$tmp/$member"
mv -f "$tmp/$member" "$lib"
echo "$lib"
