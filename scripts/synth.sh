#!/usr/bin/env bash
# Synthetic document factory wrapper.
#   scripts/synth.sh OUT N SEED [extra flags]   scenes (JPEG + JSON) into OUT
#   scripts/synth.sh gallery                    contact sheets into docs/synth/
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "gallery" ]]; then
	shift
	exec nice go run ./tools/synth -gallery docs/synth -seed 7 "$@"
fi
out="${1:?usage: scripts/synth.sh OUT N SEED [flags]}"
n="${2:-100}"
seed="${3:-1}"
shift $(( $# < 3 ? $# : 3 ))
exec nice go run ./tools/synth -out "$out" -n "$n" -seed "$seed" "$@"
