#!/usr/bin/env bash
# Builds the MinIO server used by integration and topology tests into
# .cache/bin/minio, once. Idempotent: an existing binary is kept.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.cache/bin/minio"
version="v0.0.0-20260212201848-7aac2a2c5b7c"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$root/.cache/bin"
echo "building MinIO $version (a few minutes, once)..." >&2
GOBIN="$root/.cache/bin" GOFLAGS=-buildvcs=false GOWORK=off go install "github.com/minio/minio@$version" >&2
echo "$bin"
