# mcpc: the README's first two commands are `make demo` and `make test`.
GO ?= go
REGAL := $(GO) tool -modfile=regal.tool.mod regal

.PHONY: demo test test-go test-policy lint-policy lint policy-coverage fuzz-short build bundle bench clients clients-installed

## demo: run a scripted agent session on the bundled example workspace over real stdio
demo:
	$(GO) run ./cmd/mcpc demo

## test: every test: Go (unit and end-to-end over the real binary), Rego tests, strict check and Regal lint, short fuzzing
test: test-go test-policy policy-coverage lint-policy fuzz-short

test-go: clients-installed
	$(GO) test -timeout 30m ./...

# The TypeScript SDK and Inspector clients test/clients drives mcpc with:
# installed from the lock file when npm is present (the test says it skipped
# and why when it is not).
clients-installed:
	@if command -v npm >/dev/null 2>&1 && [ ! -d test/clients/node_modules ]; then \
		npm ci --prefix test/clients --no-audit --no-fund; fi

# Fuzz targets CI runs briefly beyond their seed corpora (testdata/fuzz/),
# as package:Target; append yours.
FUZZ_TARGETS := \
	internal/exactjson:FuzzDecode \
	internal/controller:FuzzDecodePlanNode \
	internal/patch:FuzzApplyEdits \
	internal/patch:FuzzCodemods \
	schemas:FuzzValidSchema \
	internal/engine:FuzzDecodeResult \
	internal/controller:FuzzKeyMaterial \
	internal/indexer:FuzzDecodeView \
	internal/indexer:FuzzIgnoreRule \
	internal/indexer:FuzzDecodeListings \
	internal/graph:FuzzDecodeMemo \
	internal/hook:FuzzParseShell
FUZZTIME ?= 10s

## fuzz-short: each of FUZZ_TARGETS for FUZZTIME. A target that fails is
## run once more: Go's fuzzer can fail a clean run with "context deadline
## exceeded" when its time ends while a worker is busy (seen on a loaded
## 2-core machine), and a real failure writes its input to testdata/fuzz,
## which the second run replays first and fails on again.
fuzz-short:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $$t for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$${t##*:}\$$" -fuzztime $(FUZZTIME) ./$${t%%:*}/ || { \
			echo "fuzz $$t failed; once more"; \
			$(GO) test -run '^$$' -fuzz "^$${t##*:}\$$" -fuzztime $(FUZZTIME) ./$${t%%:*}/; }; done

test-policy:
	$(GO) tool opa test policies/
	$(GO) tool opa check --strict policies/

lint-policy:
	$(REGAL) lint policies/

## lint: opa check --strict and Regal over policies/
lint:
	$(GO) tool opa check --strict policies/
	$(REGAL) lint policies/

# POLICY_COVERAGE is the least share of Rego lines `opa test --coverage`
# must reach; below it the build fails.
POLICY_COVERAGE ?= 90

## policy-coverage: the Rego tests cover at least POLICY_COVERAGE% of the policies
policy-coverage:
	$(GO) tool opa test --coverage --threshold $(POLICY_COVERAGE) --format json policies/ > /dev/null

## build: the mcpc binary in ./bin
build:
	$(GO) build -o bin/mcpc ./cmd/mcpc

## bundle: the default policies and the example domain bundle (bundles/) as standard OPA bundles under bundles/out/
bundle:
	$(GO) run ./cmd/mcpc policy build --dir policies --manifest bundles/default/.manifest --output bundles/out/default.tar.gz
	$(GO) run ./cmd/mcpc policy build --dir bundles/adp-to-sdf --output bundles/out/adp-to-sdf.tar.gz

## bench: turn and plan benchmarks (figures, not pass/fail)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/

## clients: install the TypeScript SDK and Inspector used by test/clients
clients:
	npm ci --prefix test/clients
