#!/usr/bin/env bash
# make bench: inputs from the document factory (made once under
# .cache/bench), then tools/bench against a fresh all-in-one and against
# the process topology behind nginx; the two reports replace those of
# docs/benchmarks.md, below its title and summary, which are kept. Extra
# arguments go to tools/bench.
set -euo pipefail
cd "$(dirname "$0")/.."
data=.cache/bench
# One ~2 MP photo with one document; a batch of 90 photo and scan scenes
# with 1 to 4 documents and 10 multi-page PDF scans (harder than the
# reference's input; see below).
if [[ ! -f $data/.done-v2 ]]; then
	rm -rf "$data"
	go run ./tools/synth -out "$data/single" -n 1 -seed 777 -min-docs 1 -max-docs 1
	go run ./tools/synth -out "$data/batch" -n 90 -seed 778
	go run ./tools/synth -out "$data/pdf" -n 10 -seed 779 -pdf -max-pages 3
	cp "$data"/pdf/*.pdf "$data/batch/"
	touch "$data/.done-v2"
fi
# The reference's own kind of input: 100 JPEG photos of one document
# each, of the seven kinds the seed's speed table names.
if [[ ! -f $data/.done-ref-v1 ]]; then
	rm -rf "$data/ref"
	go run ./tools/synth -out "$data/ref" -n 100 -seed 780 -min-docs 1 -max-docs 1 \
		-types passport_main,passport_registration,driver_license_2011_front,driver_license_2011_back,vehicle_registration_certificate_front,vehicle_registration_certificate_back,snils_front
	touch "$data/.done-ref-v1"
fi
args=(-single "$data/single/scene_000000.jpg" -batch "$data/batch" -refbatch "$data/ref" "$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scripts/with-allinone.sh sh -c 'go run ./tools/bench -url "$DOCSUITE_URL" -pids "$DOCSUITE_PID" -label all-in-one -out "$0/benchmarks-allinone.md" "$@"' "$tmp" "${args[@]}"

# When the topology half fails, the all-in-one half (minutes of
# measurement) is kept beside the cache rather than lost with $tmp.
keep_allinone() {
	cp "$tmp/benchmarks-allinone.md" "$data/benchmarks-allinone.md"
	echo "bench: the topology run failed; the all-in-one report is in $data/benchmarks-allinone.md" >&2
	exit 1
}
go build -o bin/cluster ./tools/topology/cmd/cluster
bin/cluster -info "$tmp/cluster.env" 2> "$tmp/cluster.log" &
cluster=$!
for _ in $(seq 1 240); do
	[[ -s $tmp/cluster.env ]] && break
	kill -0 "$cluster" 2>/dev/null || { cat "$tmp/cluster.log" >&2; keep_allinone; }
	sleep 0.5
done
# shellcheck disable=SC1091
source "$tmp/cluster.env"
go run ./tools/bench -url "$DOCSUITE_URL" -pids "$DOCSUITE_PIDS" -label "topology through nginx (2 gateways, 1 of each worker)" \
	-out "$tmp/benchmarks-topology.md" "${args[@]}" || { kill "$cluster"; keep_allinone; }
kill "$cluster"
wait "$cluster" || true
# The page's title and hand-written summary (everything above the first
# "## " heading) are kept; the generated reports replace the rest.
summary=$tmp/summary.md
if [[ -f docs/benchmarks.md ]]; then
	awk '/^## /{exit} {print}' docs/benchmarks.md > "$summary"
fi
[[ -s $summary ]] || printf '# Benchmarks\n\n' > "$summary"
cat "$summary" "$tmp/benchmarks-allinone.md" <(echo) "$tmp/benchmarks-topology.md" > docs/benchmarks.md
cp "$tmp"/*.png docs/
echo "wrote docs/benchmarks.md: its summary above the reports still describes the previous run; rewrite it from the new figures"
