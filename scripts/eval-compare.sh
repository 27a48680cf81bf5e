#!/usr/bin/env bash
# Prints what a fresh evaluation changed against the committed answers
# (tools/eval -compare: McNemar's test, the calibration's change, every
# changed answer), then puts the fresh answers in the committed file's
# place, to be committed with the regenerated report.
#   scripts/eval-compare.sh COMMITTED.jsonl FRESH.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
committed=$1 fresh=$2
if [ -f "$committed" ]; then
	echo "== $committed against this run =="
	go run ./tools/eval -compare "$committed" "$fresh"
else
	echo "no $committed yet: nothing to compare this run with"
fi
cp "$fresh" "$committed"
