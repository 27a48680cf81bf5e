#!/usr/bin/env bash
# Prints what a fresh evaluation changed against the committed answers
# (tools/eval -compare: McNemar's test, the calibration's change, every
# changed answer). With --keep (as make eval calls it) it then puts the
# fresh answers in the committed file's place, to be committed with the
# regenerated report; without it the committed file is left alone, so a
# check run's answers are not committed by mistake.
#   scripts/eval-compare.sh [--keep] COMMITTED.jsonl FRESH.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
keep=0
if [ "${1:-}" = --keep ]; then
	keep=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: scripts/eval-compare.sh [--keep] COMMITTED.jsonl FRESH.jsonl" >&2
	exit 2
fi
committed=$1 fresh=$2
if [ -f "$committed" ]; then
	echo "== $committed against this run =="
	go run ./tools/eval -compare "$committed" "$fresh"
else
	echo "no $committed yet: nothing to compare this run with"
fi
if [ "$keep" = 1 ]; then
	cp "$fresh" "$committed"
fi
