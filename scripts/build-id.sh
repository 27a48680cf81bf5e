#!/usr/bin/env bash
# Prints the build's identity: the first 12 hex digits of a sha256 over the
# sources a binary is built from (go.work, go.work.sum, pkg/, services/,
# tools/ and models/, without tests, test data and build leftovers), each
# file hashed with its path. The Makefile and the Dockerfile compile it in
# (-X docsuite/pkg/version.Build=...), so two builds of the same sources
# report the same identity, wherever they were made and whether or not a
# .git folder is there, and any change of code or model gives a new one.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
find go.work go.work.sum pkg services tools models -type f \
	! -name '*_test.go' ! -name '*.test' ! -name '*.prof' \
	! -path '*/testdata/*' ! -path '*/__pycache__/*' -print0 \
	| LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12
