# tracecomb — plain Makefile with pkg-config.
#   make            build ./tracecomb
#   make deps       install missing Debian packages (as root) or print the apt-get line
#   make check      deps + build + every test (unit, CLI, UI in tmux); ends with "N passed, N failed"
#   make demo       deps + build + open the TUI on a generated sample trace
#   make asan       the same tests on an ASan+UBSan build
#   make fuzz       libFuzzer targets (clang) for the reader, the theme loader and --opt: build-fuzz/fuzz/
#   make fuzz-smoke every regression input under tests/fuzz/regress/, then each target briefly (part of check)
#   make bench      load / analysis benchmarks (ratios against raw libotf2 decode)
#   make traces     contrib tracer + MPI mini-apps → real traces under build/traces
#   make corpus     the planted-cause corpus → build/corpus/<case>/{traces.otf2,truth.txt}
#   make corpus-holdout  its holdout table (other parameters) → build/corpus-holdout/<case>/
#   make corpus-fresh    a third table, written after the method was frozen → build/corpus-fresh/<case>/
#   make mpi        build/tracecomb-mpi (mpicc; part of `all` when mpicc is installed): docs/scale.md
#   make install PREFIX=/usr/local

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
PKGS     = ncursesw yaml-0.1 libpcre2-8 otf2
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(strip $(PKG_LIBS)),)
PKG_LIBS = -lncursesw -ltinfo -lyaml -lpcre2-8 -lotf2
endif
METIS_LIBS = -lmetis
WARN    = -Wall -Wextra -Wshadow -Wno-unused-parameter
ifneq ($(CI)$(WERROR),)
WARN   += -Werror
endif
OPT     ?= -O2 -g
SAN     ?=
CFLAGS  += -std=c11 -D_GNU_SOURCE -DTC_DATADIR='"$(PREFIX)/share/tracecomb"' $(OPT) $(SAN) $(WARN) -Iinclude -MMD -MP $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) $(METIS_LIBS) -lpthread -lm

SRC      := $(shell find src -name '*.c' -not -path 'src/mpi/*' | sort)
MAIN_SRC := src/cli/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libtracecomb.a
SUPPORT_SRC := $(wildcard tests/support/*.c)
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
BIN      := $(if $(filter build,$(BUILD)),tracecomb,$(BUILD)/tracecomb)

DEB_PKGS = build-essential pkg-config libotf2-trace-dev otf2-tools libncurses-dev libyaml-dev \
           libpcre2-dev libcmocka-dev libmetis-dev tmux openmpi-bin libopenmpi-dev jq clang

# tracecomb-mpi (src/mpi, docs/scale.md): the same library, linked with mpicc
MPICC    ?= mpicc
MPI_HAVE := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
MPI_SRC  := $(wildcard src/mpi/*.c)
MPI_OBJ  := $(MPI_SRC:%.c=$(BUILD)/%.o)
MPI_BIN  := $(BUILD)/tracecomb-mpi

.PHONY: all deps check test demo asan bench traces corpus corpus-holdout corpus-fresh corpus-busy-main corpus-busy-holdout corpus-busy-fresh install clean fuzz fuzz-build fuzz-smoke mpi
# keep the test and bench objects (pattern-rule intermediates): a second make relinks nothing
.SECONDARY:
all: $(BIN) $(TEST_BIN) $(BENCH_BIN) $(if $(MPI_HAVE),$(MPI_BIN))

mpi:
ifeq ($(MPI_HAVE),yes)
	@$(MAKE) --no-print-directory $(MPI_BIN)
else
	@echo "skip mpi: $(MPICC) not installed (make deps installs openmpi-bin and libopenmpi-dev)"
endif

$(BUILD)/src/mpi/%.o: src/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) -c -o $@ $<

$(MPI_BIN): $(MPI_OBJ) $(LIB)
	$(MPICC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BIN): $(BUILD)/$(MAIN_SRC:.c=.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/support -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(SUPPORT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(LDLIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(SUPPORT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

deps:
	@sh tests/deps.sh $(DEB_PKGS)

check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory fuzz-smoke
	@BUILD=$(BUILD) BIN=$(BIN) sh tests/run.sh

test: all
	@BUILD=$(BUILD) BIN=$(BIN) sh tests/run.sh

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" all
	@ASAN_OPTIONS=detect_leaks=1 BUILD=build-asan BIN=build-asan/tracecomb sh tests/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/demo.sh $(BUILD) $(BIN)

bench: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory mpi
	@sh bench/run.sh $(BUILD) $(BIN)

traces: deps
	@$(MAKE) --no-print-directory -C contrib BUILD=$(abspath $(BUILD))/contrib traces

# the planted-cause corpus (contrib/README.md, "Corpus") → $(BUILD)/corpus/<case>/{traces.otf2,truth.txt}
corpus: deps
	@$(MAKE) --no-print-directory -C contrib BUILD=$(abspath $(BUILD))/contrib CORPUS=$(abspath $(BUILD))/corpus corpus

# the same runner on the other case tables, contrib/corpus/<set>.sh: holdout (other parameters),
# fresh (written after the method was frozen) and the ramp probes → $(BUILD)/corpus-<set>/<case>/
corpus-holdout corpus-fresh corpus-probe-ramp corpus-probe-ramp2 corpus-probe-mix corpus-probe-mix2 corpus-probe-slow corpus-probe-episode corpus-probe-mix3 corpus-probe-mix4 corpus-probe-mix5 corpus-probe-mix6 corpus-probe-parallel corpus-probe-place corpus-probe-extra corpus-probe-defaults corpus-probe-wide corpus-probe-mix7 corpus-probe-mix8 corpus-probe-odd corpus-probe-mix9 corpus-probe-mix10 corpus-probe-tags corpus-probe-mix11 corpus-probe-mw corpus-probe-mix12 corpus-probe-mix13 corpus-probe-mix14 corpus-probe-mix15 corpus-probe-mix16 corpus-probe-tail corpus-probe-mix17 corpus-probe-link corpus-probe-mix18 corpus-probe-jitter corpus-probe-map corpus-probe-wide2 corpus-probe-mix19 corpus-probe-link2 corpus-probe-mwjit: corpus-%: deps
	@$(MAKE) --no-print-directory -C contrib BUILD=$(abspath $(BUILD))/contrib CORPUS=$(abspath $(BUILD))/corpus-$* \
		CORPUS_SET=$* corpus

# a table recorded on a busy machine (BUSY processes spinning beside the runs; docs/verdicts.md,
# session 9) → $(BUILD)/corpus-busy-<set>/<case>/; score it with contrib/eval-corpus.sh
BUSY ?= 3
corpus-busy-main corpus-busy-holdout corpus-busy-fresh: corpus-busy-%: deps
	@BUSY=$(BUSY) $(MAKE) --no-print-directory -C contrib BUILD=$(abspath $(BUILD))/contrib \
		CORPUS=$(abspath $(BUILD))/corpus-busy-$* CORPUS_SET=$* corpus

# any case table run again with every seed + SHIFT (new jitter, new background draws: runs
# nobody has seen; session 11) → $(BUILD)/corpus-reseed-<set>-<SHIFT>/; score it with
# contrib/eval-corpus.sh
SHIFT ?= 1000
corpus-reseed-%: deps
	@SEED_SHIFT=$(SHIFT) $(MAKE) --no-print-directory -C contrib BUILD=$(abspath $(BUILD))/contrib \
		CORPUS=$(abspath $(BUILD))/corpus-reseed-$*-$(SHIFT) CORPUS_SET=$* corpus

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/tracecomb/themes
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tracecomb
	install -m 644 themes/*.yaml $(DESTDIR)$(PREFIX)/share/tracecomb/themes/

# --- fuzzing (tests/fuzz/README.md): clang -fsanitize=fuzzer,address,undefined ---------------
FUZZ_BUILD   = build-fuzz
FUZZ_TARGETS = reader theme opts
FUZZ_SAN     = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_CC     ?= clang
FUZZ_HAVE   := $(shell command -v $(FUZZ_CC) >/dev/null 2>&1 && echo yes)

fuzz:
ifeq ($(FUZZ_HAVE),yes)
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="$(FUZZ_SAN) -DTC_FUZZ_ALLOC_LIMIT=1073741824" fuzz-build
else
	@echo "skip fuzz: $(FUZZ_CC) not installed (make deps installs clang)"
endif

fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) $(BUILD)/fuzz/pack

$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/archive.o $(BUILD)/tests/support/latency_gen.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/fuzz/pack: $(BUILD)/tests/fuzz/pack.o $(BUILD)/tests/fuzz/archive.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

fuzz-smoke:
ifeq ($(FUZZ_HAVE),yes)
	@$(MAKE) --no-print-directory fuzz
	@sh tests/fuzz/run.sh smoke $(FUZZ_BUILD)
else
	@echo "skip fuzz-smoke: $(FUZZ_CC) not installed (make deps installs clang)"
endif

clean:
	rm -rf build build-asan build-fuzz tracecomb

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
