# fuzz.mk - libFuzzer targets for the parsers that read hostile input
# (included by the top Makefile; tests/fuzz/FIGURES.md has the figures).
#   make fuzz-build                 build/fuzz/fuzz_<target>, clang + ASan + UBSan
#   make fuzz [FUZZ_SECONDS=60]     run each target in turn; new inputs go to
#                                   build/fuzz/corpus/<target>, crashes to
#                                   build/fuzz/artifacts/<target>/
#   make fuzz-merge                 minimize build/fuzz/corpus into tests/fuzz/corpus
#   make fuzz-seeds [TRACEFS=DIR]   rewrite the seed corpora from tests/files
# TEP_SRC=DIR builds libtraceevent from its source tree (release 1.7.1, the
# one Debian 12 ships) with the same instrumentation, so the fuzzers see its
# code and ASan checks its reads; without it the installed libtraceevent.a is
# linked as it is (switching between the two: rm build/fuzz/fuzz_*).
# `make check` runs tests/fuzz.test (replay + short runs).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_TARGETS := pd_file pd_pipe tracing_data sample fields recover elf http unwind lines
FUZZ_FLAGS   := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=all
FUZZ_CFLAGS  := -std=gnu11 -D_GNU_SOURCE -Wall -Wno-unused-parameter -Icommon \
		-I/usr/include/traceevent -Itests/fuzz $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(COMMON_SRC) tests/fuzz/fuzz_common.c) \
		$(FUZZ_DIR)/obj/gen/syscalls_builtin.o
FUZZ_BINS    := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
# libtraceevent 1.7.1 asks for ~3 GB (never touched) to print an empty
# cpumask (cpumask_worst_size(0), upstream): ASan answers NULL above 2 GB,
# which libtraceevent handles, instead of spending a second on shadow memory.
FUZZ_ENV     := ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp:print_suppressions=0

# In libtraceevent's own objects UBSan does not check signed overflow, shift
# widths or alignment: 1.7.1 overflows an int in cpumask_worst_size() for an
# empty cpumask, shifts by a field's size and reads numbers at whatever
# offset a format gives (all still in 1.8.4), arithmetic that cannot corrupt
# memory on x86; ASan still checks every access, UBSan every NULL use.
ifneq ($(TEP_SRC),)
FUZZ_TEP     := $(patsubst $(TEP_SRC)/src/%.c,$(FUZZ_DIR)/tep/%.o,$(wildcard $(TEP_SRC)/src/*.c))
$(FUZZ_DIR)/tep/%.o: $(TEP_SRC)/src/%.c tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -D_GNU_SOURCE -I$(TEP_SRC)/include -I$(TEP_SRC)/include/traceevent \
		-I$(TEP_SRC)/src $(FUZZ_FLAGS) -fno-sanitize=signed-integer-overflow,shift,alignment \
		-fsanitize=fuzzer-no-link -w -c $< -o $@
else
FUZZ_TEP     := $(TEP_A)
endif

.PHONY: fuzz fuzz-build fuzz-merge fuzz-seeds
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_TEP)
# the objects named here are not intermediate: make keeps and rebuilds them
fuzz-build: $(FUZZ_OBJ) $(filter-out $(TEP_A),$(FUZZ_TEP)) $(FUZZ_BINS)

$(FUZZ_DIR)/obj/%.o: %.c tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -c $< -o $@

-include $(FUZZ_OBJ:.o=.d)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ) $(FUZZ_TEP)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(FUZZ_TEP) $(ZSTD_A) -ldw -lelf $(IBERTY_A) -llzma -lbz2 $(LIBZ)

# One target after the other, FUZZ_SECONDS each; a summary line per target.
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/artifacts/$$t $(FUZZ_DIR)/logs; \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)"; \
		$(FUZZ_ENV) $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -malloc_limit_mb=4096 \
			-artifact_prefix=$(FUZZ_DIR)/artifacts/$$t/ -print_final_stats=1 \
			$(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t \
			$$(ls -d tests/fuzz/crashes/$$t 2>/dev/null) >$(FUZZ_DIR)/logs/$$t.log 2>&1; \
		rc=$$?; tests/fuzz/summary.sh $$t $(FUZZ_DIR)/logs/$$t.log $$rc; \
	done

# Keep what adds coverage: the working corpus folded into the saved one,
# then the seeds and the smallest of the rest up to FUZZ_CORPUS_KB per target
# (tests/fuzz/corpus stays small; FIGURES.md used 900 for pd_file, 350 for
# tracing_data).
FUZZ_CORPUS_KB ?= 400
fuzz-merge: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		rm -rf $(FUZZ_DIR)/merged/$$t; mkdir -p $(FUZZ_DIR)/merged/$$t $(FUZZ_DIR)/corpus/$$t; \
		$(FUZZ_ENV) $(FUZZ_DIR)/fuzz_$$t -merge=1 -malloc_limit_mb=4096 $(FUZZ_DIR)/merged/$$t \
			tests/fuzz/corpus/$$t $(FUZZ_DIR)/corpus/$$t >/dev/null 2>&1 || continue; \
		keep=$$(mktemp -d); chmod 755 $$keep; cp tests/fuzz/corpus/$$t/seed-* $$keep/ 2>/dev/null; \
		total=$$(cat $$keep/* 2>/dev/null | wc -c); \
		for f in $$(ls -Sr $(FUZZ_DIR)/merged/$$t); do \
			sz=$$(stat -c %s $(FUZZ_DIR)/merged/$$t/$$f); \
			[ $$((total + sz)) -gt $$(($(FUZZ_CORPUS_KB) * 1024)) ] && break; \
			cp $(FUZZ_DIR)/merged/$$t/$$f $$keep/; total=$$((total + sz)); \
		done; \
		rm -rf tests/fuzz/corpus/$$t && mv $$keep tests/fuzz/corpus/$$t && \
		echo "  MERGE   $$t: $$(ls tests/fuzz/corpus/$$t | wc -l) files, $$total bytes"; \
	done

fuzz-seeds:
	python3 tests/fuzz/mkseeds.py tests/files tests/fuzz/corpus $(TRACEFS)
