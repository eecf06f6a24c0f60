# Courier: `make demo` opens the explorer on the demo collection; `make test` runs every test.
SWIFT ?= swift
# How many tests `make test` runs at once.
TEST_WIDTH ?= 3
SHELL := /bin/bash
# The libraries Postman scripts may require(), read from /usr/share/nodejs when a script asks (ScriptModules).
SCRIPT_MODULE_PACKAGES := node-lodash node-moment node-uuid chai node-ajv node-xml2js node-cheerio node-buffer \
                          node-url node-util node-querystring node-events node-punycode node-string-decoder \
                          node-readable-stream node-assert
APT_PACKAGES := libcurl4-openssl-dev libncursesw5-dev libssl-dev tmux openssl nghttp2-server zlib1g-dev \
                libjavascriptcoregtk-4.1-dev libyaml-dev libxml2 binutils nginx-light libnginx-mod-http-echo wrk zsh fish time \
                python3-venv nodejs protobuf-compiler strace libhttp-parser-dev $(SCRIPT_MODULE_PACKAGES) \
                chromium pass gnupg libsecret-1-0 libsecret-tools gnome-keyring dbus
BIN := .build/debug/courier
# `make install`: PREFIX and DESTDIR as usual; INSTALL_BUILD= INSTALL_FROM=path installs an already built binary.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BUILD ?= release
INSTALL_FROM ?= .build/release/courier
MAN_PAGE := $(wildcard docs/courier.1)
COMPLETIONS := $(wildcard completions/courier.bash completions/_courier completions/courier.fish)

.PHONY: deps build release demo test test-release test-venv bench fuzz clean install uninstall embed man static-libstdc++ \
        startup-symbols \
        static-resources \
        conformance

# Installs the Debian packages the build and tests need, only when one is missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing packages; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

# Release builds link the Swift runtime and Foundation statically: `courier --version` starts in about
# 1.2-1.5x the time of `curl --version` instead of about 1.6-1.8x (the dynamic loader was a third of it).
# (gold warned about static Foundation's use of mktemp; lld, used below, does not.)
# One-shot start-up (`courier send`, issue 19) links libstdc++ statically too: the shared one was the
# costliest library to load and relocate. The toolchain's runtime flags name it with a plain -lstdc++, so a
# one-line linker script named libstdc++.so in a folder searched first points at the archive. lld packs the
# 80,000 relative relocations (-z pack-relative-relocs, DT_RELR, glibc 2.36+) and the Swift symbols are not
# exported (nothing looks them up; the runtime's and the crash reporter's dladdr scan them), so the
# executable keeps PIE. Without the archive (no libstdc++-dev) the build links the shared one as before.
# Concrete generic types (a [Int: AttemptRecord], a Set<Int32>) get their metadata through accessor calls,
# not by demangling their names at run time: each first use by name checked the generic requirements
# (Int: Hashable) by scanning every protocol conformance of the binary, static Foundation's included, which
# was 7% of a one-shot send's CPU (2% after).
# Each Swift function gets a section of its own (-function-sections; the toolchain's archives have them
# already), so the linker drops the unreferenced ones (0.7 MB of text) and lays out first, together, the
# functions that `--version`, `send`, `run` and the explorer up to its first frame execute
# (Scripts/startup-symbols.txt, written by Scripts/startup-symbols.py): their code was spread over the 23 MB of
# text and a send took 127 page faults to read it, 49 now (a send's page faults 1,270 -> 1,125, its CPU 13% less).
# libgcc's unwinder is linked in (-static-libgcc) and the crash reporter walks the stack with it
# (courier_backtrace) instead of glibc's backtrace, which loaded libgcc_s.so at every start: that library's
# constructor probes the processor with cpuid, which traps to the hypervisor on a virtual machine (13 us each
# here); a one-shot send 8.7 -> 8.4 ms, --version 2.7 -> 2.5 ms.
LIBSTDCXX_ARCHIVE := $(shell $(CXX) -print-file-name=libstdc++.a 2>/dev/null)
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
# Static Foundation carries ICU's whole data package (34 MB: legacy character-set converters, collation,
# dictionaries for breaking Thai or Chinese lines, names of languages, currencies and units in every locale).
# The release build takes its static resources from .build/swift_static (Scripts/static-resources.sh): the
# toolchain's, linked, except an ICU archive whose data keeps root and English locale data, time zones,
# normalisation and break rules (3.6 MB), which is what Courier's date formats, time zones and regular
# expressions use. The installed binary goes from 65.8 MB to about 35 MB.
SWIFT_STATIC_DIR := $(shell swiftc -print-target-info 2>/dev/null | \
                      sed -n 's|.*"runtimeResourcePath": "\(.*\)/swift".*|\1/swift_static|p')
STATIC_RESOURCES := $(CURDIR)/.build/swift_static
STARTUP_SYMBOLS := $(CURDIR)/Scripts/startup-symbols.txt
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
                 -Xswiftc -Xfrontend -Xswiftc -function-sections \
                 $(if $(wildcard $(STARTUP_SYMBOLS)),-Xlinker --symbol-ordering-file=$(STARTUP_SYMBOLS) \
                   -Xlinker --no-warn-symbol-ordering) \
                 -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
                 -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
                 $(if $(filter /%,$(LIBSTDCXX_ARCHIVE)),-Xswiftc -Xclang-linker -Xswiftc -L$(STATIC_CXX_DIR)) \
                 $(if $(wildcard $(SWIFT_STATIC_DIR)/linux),-Xswiftc -resource-dir -Xswiftc $(STATIC_RESOURCES))

# Only the product: the test support target imports modules @testable, which release builds are not.
release: deps static-libstdc++ static-resources
	$(SWIFT) build $(RELEASE_FLAGS) --product courier

# Rewrites Scripts/startup-symbols.txt from the release binary (needs valgrind), then relinks with it.
startup-symbols: release
	python3 Scripts/startup-symbols.py .build/release/courier $(STARTUP_SYMBOLS)
	rm -f .build/release/courier
	$(MAKE) --no-print-directory release

# The static resources release builds link (see RELEASE_FLAGS); rebuilt when the toolchain or the scripts change.
static-resources: $(STATIC_RESOURCES)/linux/lib_FoundationICU.a
$(STATIC_RESOURCES)/linux/lib_FoundationICU.a: Scripts/static-resources.sh Scripts/icu-data-subset.py \
                                               $(wildcard $(SWIFT_STATIC_DIR)/linux/lib_FoundationICU.a)
	@if [ -d "$(SWIFT_STATIC_DIR)/linux" ]; then Scripts/static-resources.sh "$(SWIFT_STATIC_DIR)" "$(STATIC_RESOURCES)"; fi

# The linker script RELEASE_FLAGS points at (see above); rewritten when the archive moves.
static-libstdc++:
	@if [ -n "$(filter /%,$(LIBSTDCXX_ARCHIVE))" ]; then mkdir -p "$(STATIC_CXX_DIR)" && \
	  echo "INPUT($(LIBSTDCXX_ARCHIVE))" > "$(STATIC_CXX_DIR)/libstdc++.so.tmp" && \
	  mv "$(STATIC_CXX_DIR)/libstdc++.so.tmp" "$(STATIC_CXX_DIR)/libstdc++.so"; fi

demo: build
	$(BIN) demo

# Test-only Python packages in a venv under .build: requests (the exported Python code uses it), grpcio with
# reflection and tools and h2 (the gRPC tests' servers, Tests/Servers/grpc), strawberry-graphql on uvicorn (the
# GraphQL subscription server, Tests/Servers/graphql), Authlib on Flask (an OAuth 2.0 provider) and botocore
# (AWS's own SigV4 signer). It sees the system's packages, so a machine that has them already needs no network;
# otherwise pip fetches them.
TEST_VENV := .build/test-venv
TEST_VENV_PACKAGES := requests grpcio grpcio-reflection grpcio-tools h2 strawberry-graphql starlette uvicorn websockets \
                      authlib flask botocore
TEST_VENV_IMPORTS := import requests, grpc, grpc_reflection, grpc_tools, h2, strawberry, starlette, uvicorn, websockets, \
                     authlib, flask, botocore
test-venv:
	@$(TEST_VENV)/bin/python3 -c '$(TEST_VENV_IMPORTS)' 2>/dev/null || { \
	  { [ -x $(TEST_VENV)/bin/python3 ] || python3 -m venv --system-site-packages $(TEST_VENV); } && \
	  $(TEST_VENV)/bin/pip install -q $(TEST_VENV_PACKAGES); }

test: deps test-venv
	SWIFT_BACKTRACE=enable=no $(SWIFT) build --build-tests
	@# The whole suite in parallel, at most $(TEST_WIDTH) tests at a time: unbounded, dozens of child processes
	@# share the 2 cores and tests that wait for a stream or a cancel miss their windows. Tests that change or
	@# measure something process-wide run in a child process of their own (TestInOwnProcess).
	set -o pipefail; SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) SWIFT_BACKTRACE=enable=no \
	  $(SWIFT) test --skip-build 2>&1 | tee .build/test.log
	$(MAKE) -C Fuzz smoke
	@# The fuzz run prints last, so repeat the test count as the closing line.
	@n=$$(sed -nE 's/.*Test run with ([0-9]+) tests? .* passed.*/\1/p' .build/test.log | awk '{s+=$$1} END {print s+0}'); \
	 x=$$(sed -nE 's/.*Executed ([0-9]+) tests?, with 0 failures.*/\1/p' .build/test.log | tail -1); \
	 echo "$$(( $${n:-0} + $${x:-0} )) passed, 0 failed"

# The tests that run the `courier` binary (CourierCLITests, EndToEndTests), against the release build
# installed with `make install` into a temporary folder: an optimised, statically linked build can fail
# where the debug build the other targets test does not.
test-release: release test-venv
	@dest=$$(mktemp -d) && trap 'rm -rf "$$dest"' EXIT && \
	$(MAKE) --no-print-directory install INSTALL_BUILD= DESTDIR="$$dest" && \
	SWIFT_BACKTRACE=enable=no $(SWIFT) build --build-tests && \
	export COURIER_TEST_BINARY="$$dest$(PREFIX)/bin/courier" SWIFT_BACKTRACE=enable=no && set -o pipefail && \
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
	  $(SWIFT) test --skip-build --filter 'CourierCLITests|EndToEndTests' 2>&1 | tee .build/test-release.log

bench: deps static-libstdc++ static-resources test-venv
	$(SWIFT) build $(RELEASE_FLAGS) --product courier
	$(SWIFT) build $(RELEASE_FLAGS) --product courier-bench
	.build/release/courier-bench

fuzz: deps
	$(MAKE) -C Fuzz run

# The HTTP cache against the http-tests/cache-tests suite, run by the suite's own engine (browser selection:
# 300 tests, 137 required), one `courier send` per request (Conformance/cache-tests.mjs). Not part of
# `make test`: it takes minutes and needs a checkout of the suite at CACHE_TESTS_COMMIT, which CI does not have.
# The release binary, as installed: a debug binary's start-up on a loaded machine (about a second) is time the
# suite's short max-age values count as the stored responses' age.
CACHE_TESTS_DIR ?= $(abspath ../cache-tests)
CACHE_TESTS_COMMIT := b55b8bda3dbb8c927c04e85bd8d496a8caa3e4ba
conformance: release
	@command -v node >/dev/null || { echo "conformance needs node: apt-get install nodejs"; exit 2; }
	CACHE_TESTS_DIR="$(CACHE_TESTS_DIR)" CACHE_TESTS_COMMIT=$(CACHE_TESTS_COMMIT) COURIER=.build/release/courier \
	  node Conformance/cache-tests.mjs

# The release binary (it carries the demo collection and the themes inside), the man page and the shell
# completions when they exist.
install: $(INSTALL_BUILD)
	install -d "$(DESTDIR)$(PREFIX)/bin"
	@# Installed stripped (about a third of the size: symbols and DWARF); the debugging information goes to
	@# bin/.debug/courier.debug beside it, where gdb and eu-stack look through the binary's debug link. Crash
	@# reports name functions without it: they read the symbols the runtime keeps for itself.
	install -d "$(DESTDIR)$(PREFIX)/bin/.debug"
	objcopy --only-keep-debug "$(INSTALL_FROM)" "$(DESTDIR)$(PREFIX)/bin/.debug/courier.debug"
	chmod 0644 "$(DESTDIR)$(PREFIX)/bin/.debug/courier.debug"
	strip --strip-all -o "$(DESTDIR)$(PREFIX)/bin/courier.tmp" "$(INSTALL_FROM)"
	cd "$(DESTDIR)$(PREFIX)/bin" && objcopy --add-gnu-debuglink=.debug/courier.debug courier.tmp && \
	  chmod 0755 courier.tmp && mv courier.tmp courier
	@if [ -n "$(MAN_PAGE)" ]; then install -d "$(DESTDIR)$(PREFIX)/share/man/man1" && \
	  install -m 0644 $(MAN_PAGE) "$(DESTDIR)$(PREFIX)/share/man/man1/courier.1"; fi
	@for f in $(COMPLETIONS); do case $$f in \
	  *.bash) d=share/bash-completion/completions; n=courier;; \
	  *.fish) d=share/fish/vendor_completions.d; n=courier.fish;; \
	  *) d=share/zsh/site-functions; n=_courier;; esac; \
	  install -d "$(DESTDIR)$(PREFIX)/$$d" && install -m 0644 $$f "$(DESTDIR)$(PREFIX)/$$d/$$n"; done
	@echo "installed $(DESTDIR)$(PREFIX)/bin/courier"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/courier" "$(DESTDIR)$(PREFIX)/bin/.debug/courier.debug" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/courier.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/courier" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/courier.fish" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_courier"

# Regenerates the Swift copies of Collections/demo.http, its environment and Themes/*.json that the binary
# carries (tests fail when they differ from the files).
embed:
	Scripts/embed-files.sh

# Regenerates the manual page and the shell completions from the command tables (a test fails when the
# committed files differ from what the binary generates). Each is written to a temporary file, then renamed.
man: build
	mkdir -p docs completions
	$(BIN) help --man > docs/courier.1.tmp && mv docs/courier.1.tmp docs/courier.1
	$(BIN) completions bash > completions/courier.bash.tmp && mv completions/courier.bash.tmp completions/courier.bash
	$(BIN) completions zsh > completions/_courier.tmp && mv completions/_courier.tmp completions/_courier
	$(BIN) completions fish > completions/courier.fish.tmp && mv completions/courier.fish.tmp completions/courier.fish

clean:
	rm -rf .build Fuzz/.build
