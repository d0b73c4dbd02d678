# Makefile - builds the tracebox multicall binary and runs its tests.
#   make          build/tracebox (static glibc) and the applet links
#   make check    install missing Debian packages, build, run every test
#   make demo     install, build, record a short workload and print it
#                 (ARCH=arm64, arm or s390x: recorded on that board in QEMU)
#   make bench    benchmarks against perf (tests/bench/)
#   make boards   every QEMU board's kernel, headers, tiny recorder and
#                 initramfs, the boards side by side under one make -j(nproc+1)
#   make qemu-check  make boards, then each board's test plan (qemu/qemu.mk)

CC      ?= gcc
BUILD   ?= build
# The applets: names from applets/applets.list, the one list (the C table
# is generated from it below, initramfs/build.sh makes the guest's links).
APPLET_LIST := applets/applets.list
APPLETS := $(shell sed -n 's/^\([a-z][a-z0-9_-]*\)[[:space:]].*/\1/p' $(APPLET_LIST))
TEP_A   := $(shell pkg-config --variable=libdir libtraceevent 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)/libtraceevent.a
# zstd for PERF_RECORD_COMPRESSED (perf record -z): Debian's libzstd-dev static archive
ZSTD_A  := $(shell $(CC) -print-file-name=libzstd.a)
# libelf for the ELF symbol tables (common/symbols/sym_elf.c): Debian's libelf-dev
# static archive, which needs zlib; C++ names demangled by libiberty's
# cplus_demangle, as Debian builds perf (libiberty-dev)
ELF_A   := $(shell $(CC) -print-file-name=libelf.a)
IBERTY_A := $(shell $(CC) -print-file-name=libiberty.a)
# libdw (libdwfl) unwinds --call-graph dwarf stacks (common/unwind/): Debian's
# libdw-dev static archive, with the arch backends inside; it needs libelf,
# zlib, liblzma and libbz2 (their -dev packages' archives)
DW_A    := $(shell $(CC) -print-file-name=libdw.a)
SYM_LIBS := $(DW_A) $(ELF_A) $(IBERTY_A) -llzma -lbz2 -lz
# zlib for the payload's compressed files (common/util/payload_zlib.c)
LIBZ    := -lz

CFLAGS_COMMON := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter -g
# The layers (applets -> engines -> common, never upward): each compiles with
# the include paths of the layers below it and its own, so an upward include
# does not compile (tests/layers.test also refuses '..' and shows one fail).
INC_common  := -Icommon -I/usr/include/traceevent
INC_engines := -Icommon -Iengines
INC_applets := -Icommon -Iengines -Iapplets
# the layer of a source path (common/util/x.c -> common); generated files
# are named after the layer whose headers they include
layer_of = $(firstword $(subst /, ,$(1)))
INC_gen/syscalls_builtin := $(INC_common)
INC_gen/payload := $(INC_common)
INC_gen/applets_table := $(INC_applets)
INC_gen/pic_assets := $(INC_engines)
inc_of = $(or $(INC_$(call layer_of,$(1))),$(INC_$(1)))
# each object's header dependencies, written beside it (build/.../x.d)
DEPFLAGS := -MMD -MP

# Embedded Python: Debian's static libpython3.11.a (and the libraries its
# built-in modules need); without it, the engine registers a stub.
PY_INC  := /usr/include/python3.11
PY_A    := /usr/lib/python3.11/config-3.11-x86_64-linux-gnu/libpython3.11.a
ifneq ($(wildcard $(PY_INC)/Python.h $(PY_A)),)
PY_SRC  := $(sort $(wildcard engines/python/*.c))
PY_LIBS := $(PY_A) -lexpat -lz -lm -lpthread -lutil -ldl
CFLAGS_COMMON += -DHAVE_PYTHON
endif
CFLAGS  ?= -O2
SAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# common/tiny/ holds the tiny build's stand-ins (mk/tiny.mk)
COMMON_SRC  := $(sort $(filter-out common/tiny/%,$(wildcard common/*/*.c)))
APPLET_SRC  := $(sort $(wildcard applets/*.c applets/*/*.c))
# Embedded Perl: Debian's static libperl.a; without it, a stub.
PERL_CORE := /usr/lib/x86_64-linux-gnu/perl/5.36/CORE
PERL_A    := /usr/lib/x86_64-linux-gnu/libperl.a
ifneq ($(wildcard $(PERL_CORE)/perl.h $(PERL_A)),)
PERL_SRC  := $(sort $(wildcard engines/perl/*.c))
PERL_LIBS := $(PERL_A) -lcrypt -lm -ldl -lpthread
PERL_SO_LIBS := -Wl,-E -L$(PERL_CORE) -lperl -lcrypt
PERL_CFLAGS := -I$(PERL_CORE) -D_REENTRANT -D_LARGEFILE_SOURCE -D_FILE_OFFSET_BITS=64 -fwrapv \
	       -fno-strict-aliasing -Wno-shadow -Wno-unused-parameter
CFLAGS_COMMON += -DHAVE_PERL
endif
# the export engines (docs/export.md): SQLite from Debian's static libsqlite3.a
SQLITE_A    := $(shell $(CC) -print-file-name=libsqlite3.a)
EXPORT_SRC  := $(sort $(wildcard engines/export/*.c))
# the pictures (docs/pictures.md): their scripts and styles become C strings
PIC_SRC     := $(sort $(wildcard engines/pictures/*.c))
PIC_ASSETS  := $(sort $(wildcard engines/pictures/*.js engines/pictures/*.css))
ENGINE_SRC  := $(sort $(wildcard engines/*.c)) $(PERL_SRC) $(PY_SRC) $(EXPORT_SRC) $(PIC_SRC)
UNIT_SRC    := $(sort $(wildcard tests/unit/*.c))

GEN_SRC     := $(BUILD)/gen/syscalls_builtin.c
GEN_APPLETS := $(BUILD)/gen/applets_table.c

SRC     := $(COMMON_SRC) $(APPLET_SRC) $(ENGINE_SRC)
GEN_OBJ := gen/syscalls_builtin.o gen/applets_table.o gen/payload.o gen/pic_assets.o
OBJ     := $(patsubst %.c,$(BUILD)/obj/%.o,$(SRC)) $(addprefix $(BUILD)/obj/,$(GEN_OBJ))
SAN_OBJ := $(patsubst %.c,$(BUILD)/san/%.o,$(SRC)) $(addprefix $(BUILD)/san/,$(GEN_OBJ))
DYN_OBJ := $(patsubst %.c,$(BUILD)/dyn/%.o,$(SRC)) $(addprefix $(BUILD)/dyn/,$(GEN_OBJ))
SAN_COMMON_OBJ := $(patsubst %.c,$(BUILD)/san/%.o,$(COMMON_SRC)) $(BUILD)/san/gen/syscalls_builtin.o
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))

.PHONY: all deps check demo bench clean sanitize unit dynamic
all: $(BUILD)/tracebox $(addprefix $(BUILD)/,$(APPLETS)) $(BUILD)/workload

# The tests' known workload (N getppid calls, M failing opens).
$(BUILD)/workload: tests/tools/workload.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<

# perl.h and Python.h want their own flags, only in their engine's files
objs_of = $(foreach d,obj san dyn,$(patsubst %.c,$(BUILD)/$(d)/%.o,$(1)))
$(call objs_of,$(PERL_SRC)): CFLAGS_COMMON += $(PERL_CFLAGS)
$(call objs_of,$(PY_SRC)): CFLAGS_COMMON += -I$(PY_INC)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,$*) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,$*) $(DEPFLAGS) $(SAN_FLAGS) -c $< -o $@

$(BUILD)/dyn/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,$*) $(DEPFLAGS) $(CFLAGS) -DTRACEBOX_DYNAMIC -c $< -o $@

# The applet table, sorted, a duplicate name fails the build.
$(GEN_APPLETS): $(APPLET_LIST) scripts/tools/gen-applets.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@ (from $(APPLET_LIST))"
	@scripts/tools/gen-applets.sh $(APPLET_LIST) $@

# The built-in syscall table, from the installed linux-source (x86_64).
$(GEN_SRC): scripts/tools/gen-syscalls.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@ (x86_64, aarch64, arm and s390x syscall tables from linux-source-6.1)"
	@scripts/tools/gen-syscalls.sh $@

$(BUILD)/gen/pic_assets.c: $(PIC_ASSETS) scripts/tools/gen-assets.py
	@mkdir -p $(dir $@)
	@echo "  GEN     $@ (the pictures' scripts and styles)"
	@scripts/tools/gen-assets.py $@ $(PIC_ASSETS)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,gen/$*) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/san/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,gen/$*) $(DEPFLAGS) $(SAN_FLAGS) -c $< -o $@

$(BUILD)/dyn/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(call inc_of,gen/$*) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/tracebox: $(OBJ)
	$(CC) -static -o $@ $(OBJ) $(TEP_A) $(ZSTD_A) $(SQLITE_A) $(SYM_LIBS) $(PY_LIBS) $(PERL_LIBS) $(LIBZ) 2>&1 | \
		{ grep -v "requires at runtime the shared libraries\|in function \`" || true; }
	@test -x $@

# The dynamic build: same sources, the shared libpython, so scripts may
# import C extension modules (sqlite3, ctypes...).
dynamic: $(BUILD)/dyn/tracebox
$(BUILD)/dyn/tracebox: $(DYN_OBJ)
	$(CC) -o $@ $(DYN_OBJ) $(TEP_A) $(ZSTD_A) $(SQLITE_A) -ldw -lelf -llzma $(IBERTY_A) -lpython3.11 $(PERL_SO_LIBS) -lm $(LIBZ)
	for a in $(APPLETS); do ln -sf tracebox $(BUILD)/dyn/$$a; done

$(addprefix $(BUILD)/,$(APPLETS)): $(BUILD)/tracebox
	ln -sf tracebox $@

# The sanitizer build: same sources, ASan+UBSan, dynamic (ASan needs it).
sanitize: $(BUILD)/san/tracebox $(UNIT_BIN)
unit: $(UNIT_BIN)
$(BUILD)/san/tracebox: $(SAN_OBJ)
	$(CC) $(SAN_FLAGS) -o $@ $(SAN_OBJ) $(TEP_A) $(ZSTD_A) $(SQLITE_A) -ldw -lelf -llzma $(IBERTY_A) $(if $(PY_LIBS),-lpython3.11 -lm) \
		$(PERL_SO_LIBS) $(LIBZ)
	for a in $(APPLETS); do ln -sf tracebox $(BUILD)/san/$$a; done

# A unit test links common/ and, named in UNIT_LINKS_<test>, the pure
# logic of applets/ and engines/ it tests (their sanitizer objects; sources
# that need an interpreter's headers or libraries do not belong here).
UNIT_LINKS_test_args   := applets/args.c applets/xfuncs.c
UNIT_LINKS_test_time   := applets/report/report_time.c
UNIT_LINKS_test_hold   := applets/report/report_hold.c
UNIT_LINKS_test_fields := applets/report/report_fields.c applets/xfuncs.c
UNIT_LINKS_test_msg    := applets/xfuncs.c
UNIT_LINKS_test_json   := engines/export/export_core.c engines/engine_core.c
UNIT_LINKS_test_perl_sample := engines/ec_sample.c
UNIT_LINKS_test_ch_url := engines/export/export_ch_url.c
UNIT_LINKS_test_unwind_regs := applets/record/record_callgraph.c
unit_links = $(patsubst %.c,$(BUILD)/san/%.o,$(UNIT_LINKS_$(1)))
$(foreach u,$(UNIT_BIN),$(eval $(u): $(call unit_links,$(notdir $(u)))))
$(BUILD)/unit/%: tests/unit/%.c $(SAN_COMMON_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(INC_applets) $(INC_common) $(DEPFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< \
		$(call unit_links,$*) $(SAN_COMMON_OBJ) $(TEP_A) $(ZSTD_A) -ldw -lelf -llzma $(IBERTY_A) $(LIBZ) -lm

deps:
	@scripts/tools/install-deps.sh

# make check builds with a job a CPU (CHECK_JOBS), whatever -j it was given
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check: deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all sanitize dynamic tiny
	@tests/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/tools/demo-qemu.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@tests/bench/report-print
	@tests/bench/report-python
	@tests/bench/report-python-print
	@tests/bench/report-perl
	@tests/bench/report-stacks
	@tests/bench/report-script-stacks
	@tests/bench/record-overhead
	@tests/bench/export

clean:
	rm -rf $(BUILD)

# The header dependencies the compiler wrote (-MMD -MP), once there are any.
-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(DYN_OBJ:.o=.d) $(UNIT_BIN:=.d)

# Rules kept beside what they build: the fuzz targets, the kernel and QEMU rig.
include $(wildcard tests/fuzz/fuzz.mk kernel/kernel.mk qemu/qemu.mk mk/tiny.mk mk/payload.mk mk/install.mk)

# tests/layers.test asks for a layer's include paths and the product's objects
print-inc-%:
	@echo $(INC_$*)
print-objs:
	@echo $(filter-out $(BUILD)/obj/gen/%,$(OBJ))
