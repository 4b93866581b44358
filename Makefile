# Lightbox: `make run` opens the sample library, `make test` runs every test.
SHELL := /bin/bash
APT_PACKAGES := pkg-config libncurses-dev ncurses-term libvips-dev libturbojpeg0-dev zlib1g-dev
TEST_PACKAGES := tmux python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS ?=

.PHONY: run build deps test-deps bench-deps test unit-test e2e-test test-hostile test-asan test-tsan fuzz bench samples clean

## Installs the Debian packages that are missing (through sudo when not root).
deps:
	@missing=$$(for p in $(APT_PACKAGES) $(EXTRA_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing: $$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

test-deps:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="$(TEST_PACKAGES)"

build: deps
	swift build -c release $(SWIFT_FLAGS)

## Builds and opens the sample library.
run: build
	.build/release/lightbox assets

## Unit and snapshot tests, the end-to-end tests in tmux, and the generated hostile inputs.
test: test-deps
	swift build -c release $(SWIFT_FLAGS)
	swift test $(SWIFT_FLAGS)
	bash Tests/EndToEnd/run.sh .build/release/lightbox
	bash Tests/Hostile/run.sh .build/release/lightbox --fast

## Every hostile input: generated ones and the broken images Debian packages ship.
test-hostile:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="gdk-pixbuf-tests golang-github-rwcarlsen-goexif-dev golang-1.19-src golang-golang-x-image-dev"
	swift build -c release $(SWIFT_FLAGS)
	bash Tests/Hostile/run.sh .build/release/lightbox

## libFuzzer on every parser of outside bytes, FUZZ_SECONDS each (default 60).
fuzz: test-deps
	bash Tests/Fuzz/run.sh $(or $(FUZZ_SECONDS),60)

## The unit tests under AddressSanitizer (leaks inside XCTest itself are suppressed).
test-asan: test-deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp swift test --sanitize=address

## The thumbnail provider's and decoder pool's concurrency tests under ThreadSanitizer.
test-tsan: test-deps
	swift test --sanitize=thread --filter "ThumbnailProvider|WorkerPool|workIsTaken|resultsArrive|aConcurrentReader|theWorkerLoop"

## Figures beside timg, chafa, djpeg and vipsthumbnail, on a generated corpus (about 6 GB, made once).
bench-deps:
	@$(MAKE) --no-print-directory deps EXTRA_PACKAGES="timg chafa libjpeg-turbo-progs libvips-tools time"

bench: bench-deps
	swift build -c release $(SWIFT_FLAGS)
	bash bench/run.sh $(CORPUS)

unit-test: test-deps
	swift test $(SWIFT_FLAGS)

e2e-test: test-deps
	swift build -c release $(SWIFT_FLAGS)
	bash Tests/EndToEnd/run.sh .build/release/lightbox

## Regenerates the sample library (procedural pictures) in assets/.
samples: build
	rm -rf assets && .build/release/lightbox-samples assets

clean:
	rm -rf .build
