#!/usr/bin/env bash
# Runs every Go fuzz target in the repository for a fixed number of inputs.
#   scripts/fuzz.sh [EXECS]    EXECS per target, default 2000 (make test);
#                              make fuzz-long passes 100000.
# Count-based budgets (-fuzztime Nx) on purpose: a duration budget trips a
# race in Go 1.26's fuzz coordinator (golang/go#75804) that fails a run with
# "context deadline exceeded" and no failing input.
set -euo pipefail
cd "$(dirname "$0")/.."
execs="${1:-2000}"
execs="${execs%x}"
status=0
while IFS=: read -r file name; do
	dir="./$(dirname "$file")"
	echo "fuzz $dir $name ($execs inputs)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "${execs}x" "$dir"; then
		echo "FAIL: $name in $dir (a failing input is saved under $dir/testdata/fuzz/$name)" >&2
		status=1
	fi
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' pkg services tools | sed 's/:func /:/' | sort)
exit $status
