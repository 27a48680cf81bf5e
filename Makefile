# Document classification suite. The two commands: `make run` and `make test`.
# Every target installs what it needs first (idempotently) and works as root
# on a fresh Debian 12 machine with Go 1.26.

SHELL := /bin/bash
export GOFLAGS := -buildvcs=false
export OMP_THREAD_LIMIT := 1
export ORT_DISABLE_TELEMETRY := 1
export OPENCV_LOG_LEVEL := ERROR
ROOT := $(CURDIR)
BIN := $(ROOT)/bin
CACHE := $(ROOT)/.cache
ORT_LIB := $(CACHE)/onnxruntime/libonnxruntime.so.1
MINIO := $(CACHE)/bin/minio
STATICCHECK := $(CACHE)/bin/staticcheck
SERVICES := allinone classifier cropper fraud gateway janitor license ocr orienter
# One pattern per module: ./services/... does not cross module roots in a workspace.
PKGS := ./pkg/... $(foreach s,$(SERVICES),./services/$(s)/...) ./tools/...
ROLES := gateway cropper classifier orienter ocr fraud license janitor allinone
TEST_TIMEOUT ?= 25m
FUZZEXECS ?= 2000

.PHONY: run test deps build lint fuzz fuzz-long models synth synth-gallery eval bench topology-test clean help

help:
	@echo "make run    - install what is missing, build, start the all-in-one on http://127.0.0.1:8080 (HTTP_ADDR to change)"
	@echo "make test   - install what is missing, run every test"
	@echo "other: build lint fuzz fuzz-long models synth synth-gallery eval bench topology-test clean"

## run: the all-in-one in the foreground; Ctrl-C stops it cleanly.
run: deps build
	@. scripts/dev-avx512.sh "make run"; exec $(BIN)/allinone

## test: lint, unit and integration tests (in-process NATS, real MinIO,
## end-to-end HTTP against the all-in-one), the production topology as
## processes behind nginx, then a short fuzz run.
test: deps $(MINIO) $(STATICCHECK)
	$(MAKE) --no-print-directory lint
	MINIO_REQUIRED=1 ONNXRUNTIME_LIB=$(ORT_LIB) go test -count=1 -timeout $(TEST_TIMEOUT) $(PKGS)
	$(MAKE) --no-print-directory topology-test
	$(MAKE) --no-print-directory fuzz

## deps: Debian packages, the ONNX Runtime library and the PP-OCRv4 text models
## (cached, sha256-checked).
deps: $(ORT_LIB)
	@scripts/install-deps.sh
	@scripts/install-ocr-models.sh >/dev/null

$(ORT_LIB):
	@scripts/install-deps.sh
	scripts/install-onnxruntime.sh

$(MINIO):
	scripts/install-minio.sh

$(STATICCHECK):
	GOBIN=$(CACHE)/bin GOWORK=off go install honnef.co/go/tools/cmd/staticcheck@v0.8.0

build: deps
	@mkdir -p $(BIN)
	@id=$$(scripts/build-id.sh) && for r in $(ROLES); do \
		go build -ldflags "-X docsuite/pkg/version.Build=$$id" -o $(BIN)/$$r ./services/$$r || exit 1; done

lint: $(STATICCHECK)
	@unformatted=$$(gofmt -l pkg services tools); if [ -n "$$unformatted" ]; then echo "not gofmt-clean:"; echo "$$unformatted"; exit 1; fi
	go vet $(PKGS)
	$(STATICCHECK) $(PKGS)

fuzz:
	scripts/fuzz.sh $(FUZZEXECS)

fuzz-long:
	scripts/fuzz.sh 100000

models: deps
	scripts/models.sh

synth: deps
	go run ./tools/synth -out $(or $(OUT),synth-out) -n $(or $(N),100) -seed $(or $(SEED),1)

## eval: accuracy on the real data against a fresh all-in-one; report in
## docs/accuracy.md (plots beside it). Then both croppers in-process on a
## fresh synthetic test set (seed 90210) and the real data:
## docs/accuracy-cropper.md; then the service on that synthetic set:
## docs/accuracy-synthetic.md; then the passport extraction on 40 factory
## scans and 40 photos: docs/accuracy-extraction-current.md, and the
## residence pages on 60 of each: docs/accuracy-registration-current.md;
## then full-text OCR on 40 factory pages of each kind:
## docs/accuracy-fulltext-current.md. Each service run's answers go to
## docs/accuracy-pairs.jsonl and docs/accuracy-synthetic-pairs.jsonl, and
## what changed since the committed ones is printed (tools/eval -compare).
# FACTORY tags the synthetic test set with the factory's sources: a
# changed factory makes it again.
eval: FACTORY = $(shell scripts/factory-tag.sh)
# EVAL_SET names the synthetic test set relative to the repository where it
# lies in it, so the reports list its scenes without this machine's path.
eval: EVAL_SET = $(patsubst $(ROOT)/%,%,$(CACHE))/crop-test
eval: build
	scripts/with-allinone.sh sh -c 'go run ./tools/eval -url $$DOCSUITE_URL -real ../shared/realdata -pairs $(CACHE)/accuracy-pairs.jsonl -out docs/accuracy.md'
	scripts/eval-compare.sh --keep docs/accuracy-pairs.jsonl $(CACHE)/accuracy-pairs.jsonl
	test -f $(CACHE)/crop-test/.done-200-90210-$(FACTORY) || { rm -rf $(CACHE)/crop-test && nice go run ./tools/synth -out $(CACHE)/crop-test -n 200 -seed 90210 && touch $(CACHE)/crop-test/.done-200-90210-$(FACTORY); }
	nice go run ./tools/eval -crop -synth $(EVAL_SET) -real ../shared/realdata -out docs/accuracy-cropper.md
	scripts/with-allinone.sh sh -c 'go run ./tools/eval -url $$DOCSUITE_URL -synth $(EVAL_SET) -pairs $(CACHE)/accuracy-synthetic-pairs.jsonl -out docs/accuracy-synthetic.md'
	scripts/eval-compare.sh --keep docs/accuracy-synthetic-pairs.jsonl $(CACHE)/accuracy-synthetic-pairs.jsonl
	EXTRACT_EVAL_N=40 EXTRACT_EVAL_OUT=$(ROOT)/docs/accuracy-extraction-current.md go test -count=1 -timeout 30m -run TestEvalSynthetic ./pkg/extract
	EXTRACT_EVAL_N=60 EXTRACT_EVAL_OUT=$(ROOT)/docs/accuracy-registration-current.md go test -count=1 -timeout 30m -run TestEvalRegistration ./pkg/extract
	FULLTEXT_EVAL_N=40 FULLTEXT_EVAL_OUT=$(ROOT)/docs/accuracy-fulltext-current.md go test -count=1 -timeout 30m -run TestEvalFulltext ./pkg/ocr

## bench: latency and throughput of a fresh all-in-one and of the process
## topology behind nginx; report in docs/benchmarks.md.
bench: build $(MINIO)
	scripts/bench.sh $(BENCH_ARGS)

## topology-test: the production topology as separate processes (nats-server,
## MinIO, every role, nginx) exercised through nginx.
topology-test: deps $(MINIO) build
	TOPOLOGY=1 go test -count=1 -timeout 20m -run TestTopology -v ./tools/topology/

synth-gallery:
	scripts/synth.sh gallery

clean:
	rm -rf $(BIN) data
