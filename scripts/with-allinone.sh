#!/usr/bin/env bash
# Starts the built all-in-one on a free loopback port with a throw-away data
# folder, waits until /healthcheck is 200, runs the given command with
# DOCSUITE_URL and DOCSUITE_PID set, then stops the service. LOGURU_LEVEL
# (default WARNING) sets the service's log level; ALLINONE_LOG, when set,
# names a file that keeps the service's log afterwards.
#   scripts/with-allinone.sh COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/dev-avx512.sh "$(basename "$0")"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; if [ -n "${ALLINONE_LOG:-}" ]; then cp "$work/allinone.log" "$ALLINONE_LOG"; fi; rm -rf "$work"' EXIT
HTTP_ADDR="127.0.0.1:$port" STORE_DIR="$work/objects" NATS_STORE_DIR="$work/nats" LOGURU_LEVEL="${LOGURU_LEVEL:-WARNING}" \
	bin/allinone > "$work/allinone.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
	if curl -sf "http://127.0.0.1:$port/healthcheck" > /dev/null; then
		break
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "all-in-one exited:" >&2
		cat "$work/allinone.log" >&2
		exit 1
	fi
	sleep 0.5
done
export DOCSUITE_URL="http://127.0.0.1:$port" DOCSUITE_PID="$pid"
"$@"
