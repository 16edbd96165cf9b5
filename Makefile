# sanitrace — build, test and maintenance targets.
# A new user needs two: `make demo` and `make test`.

GO        ?= go
BIN       ?= bin/sanitrace
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
# The release build: one static file. CGO_ENABLED=0 because the net
# package (debuginfod's HTTP client) would otherwise link libc through
# cgo's resolver; -trimpath keeps this machine's paths out of the binary.
RELEASE_ENV   := CGO_ENABLED=0
RELEASE_FLAGS := -trimpath
# make install: PREFIX and DESTDIR as usual (make install DESTDIR=pkg PREFIX=/usr).
PREFIX    ?= /usr/local
DESTDIR   ?=
MANDIR    ?= $(PREFIX)/share/man
MANOUT    ?= bin/man
STATICCHECK_VERSION := v0.8.2
FUZZTIME  ?= 3s
SHARED    ?= ../shared

# pipefail: `go test | testreport` must fail when go test does.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: all build man install test unit race fuzz-short fuzz-long campaign campaign-table demo bench bench-compare lint testdata clean

all: build

build:
	$(RELEASE_ENV) $(GO) build $(RELEASE_FLAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/sanitrace

# Man pages (section 1), generated from the commands' own help; dated by
# the last commit so that they are reproducible.
# The generator is built apart (-tags man) so that the released binary does
# not carry cobra/doc.
man:
	rm -rf $(MANOUT)
	$(GO) build -tags man -ldflags '$(LDFLAGS)' -o $(BIN)-man ./cmd/sanitrace
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) $(BIN)-man man $(MANOUT)
	rm -f $(BIN)-man

# The binary, its man pages and the bash, zsh and fish completions.
install: build man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/sanitrace
	install -m 644 $(MANOUT)/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sanitrace
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_sanitrace
	$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sanitrace.fish

# Unit and integration tests (integration tests skip, with a reason, when a
# tool or ../shared is missing), then a few seconds of every fuzz target.
# testreport prints a line per package, failing tests' output and every
# skip with its reason (plain go test shows reasons only with -v). All
# three run even when one fails; the last line counts what passed, failed
# and skipped in all of them.
COUNTS := bin/test-counts
test: bin/testreport
	@rm -f $(COUNTS); status=0; \
	$(MAKE) --no-print-directory unit TESTCOUNTS=$(COUNTS) || status=1; \
	$(MAKE) --no-print-directory race TESTCOUNTS=$(COUNTS) || status=1; \
	$(MAKE) --no-print-directory fuzz-short TESTCOUNTS=$(COUNTS) || status=1; \
	bin/testreport -summary $(COUNTS) || status=1; \
	exit $$status

bin/testreport: $(wildcard internal/cmd/testreport/*.go)
	$(GO) build -o $@ ./internal/cmd/testreport

# With TESTCOUNTS set (make test), testreport adds its counts there
# instead of printing them.
REPORT = bin/testreport $(if $(TESTCOUNTS),-counts $(TESTCOUNTS))

# The timeout is a hang guard, not a speed bound: cmd/sanitrace's tests
# took 11 minutes on a machine shared by six builds.
unit: bin/testreport
	$(GO) test -count=1 -timeout 20m -json ./... | $(REPORT)

# The packages with concurrent lookups (symbolize's lazy caches, dropin's
# parallel batches, resolve's per-module fan-out, the module cache they
# share) under the race detector, which needs cgo and a C compiler.
RACE_PKGS := ./symbolize/ ./dropin/ ./resolve/ ./batch/ ./modcache/
race: bin/testreport
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null; then \
		echo "$(GO) test -race $(RACE_PKGS)"; \
		$(GO) test -race -count=1 -timeout 8m -json $(RACE_PKGS) | $(REPORT); \
	else echo "race: skipped: the race detector needs cgo and a C compiler ($$($(GO) env CC))"; fi

fuzz-short:
	FUZZTIME=$(FUZZTIME) TESTCOUNTS=$(TESTCOUNTS) ./scripts/fuzz.sh

# A longer fuzz session: make fuzz-long FUZZTIME=10m
fuzz-long:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

# The reliability campaign (docs/reliability.md): N mutants of every input
# kind through the commands that read them and through the reference
# tools, J kinds at once, each run bounded in time and memory. State and
# findings are kept per kind in bin/campaign/, so a second `make campaign`
# goes on where the first stopped (N is the total per kind, not a number
# to add). CAMPAIGN_FLAGS passes more (-kinds log,lws, -refs=false,
# -timeout 60s, -mem 1024, -reset). `make test` runs a slice of it
# (internal/campaign's TestSlice). `make campaign-table` prints the
# figures as Markdown for docs/reliability.md.
N  ?= 1000
J  ?= 2
CAMPAIGN       := bin/sanitrace-campaign
CAMPAIGN_STATE ?= bin/campaign
CAMPAIGN_FLAGS ?=
campaign: build $(CAMPAIGN)
	$(CAMPAIGN) -n $(N) -j $(J) -sanitrace $(BIN) -state $(CAMPAIGN_STATE) -shared $(SHARED) $(CAMPAIGN_FLAGS)

campaign-table: $(CAMPAIGN)
	@$(CAMPAIGN) -table -state $(CAMPAIGN_STATE)

$(CAMPAIGN): $(wildcard internal/cmd/campaign/*.go internal/campaign/*.go internal/mutate/*.go)
	$(GO) build -o $@ ./internal/cmd/campaign

demo: build
	./scripts/demo.sh $(BIN)

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./symbolize/ ./parse/ ./decompress/ ./internal/inflate/
	@if [ -x $(SHARED)/bench/run.sh ]; then \
		SANITRACE=$(abspath $(BIN)) $(SHARED)/bench/run.sh; \
	else echo "bench: $(SHARED)/bench/run.sh not found; skipping the comparison with llvm-symbolizer"; fi

# The project's own comparison with the symbolizers users run (llvm-symbolizer
# 19 and 14, llvm-addr2line 19, gimli, addr2line, eu-addr2line), decode, batch
# and many modules: bench/README.md. The first run builds the corpus into
# $$SANITRACE_BENCH_DIR (default ~/.cache/sanitrace-bench-own); PARTS picks
# some of "symbolize decode batch modules".
bench-compare: build
	SANITRACE=$(abspath $(BIN)) bench/run.sh $(PARTS)

# The command is built for the systems its users read logs on; the tests
# are Linux's (they drive Linux's reference tools), vetted on macOS too.
CROSS ?= darwin/arm64 darwin/amd64 windows/amd64 freebsd/amd64 linux/arm64

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	@for p in $(CROSS); do echo "build $$p"; GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/sanitrace || exit 1; done
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# Rebuild the committed test fixtures from testdata/src.
testdata:
	$(MAKE) -C testdata

clean:
	rm -rf bin
