# tiny.mk - make tiny: build/tiny/tracebox, the engine-less recorder for the
# smallest boards (musl-gcc -static; no libtraceevent, zstd or zlib):
# trace-record and trace-list, with the canned scripts' record halves.
# Included by the Makefile. TINY_CC and TINY_ASM (the kernel's uapi asm/
# folder of the target) change for a cross build.

# TINY_ARCH=aarch64: the arm64 board's, cross-built with Debian's
# musl-dev:arm64 wrapper against the arm64 UAPI headers of the kernel tree
# (make kernel-headers-arm64), as build/tiny-aarch64/tracebox.
TINY_ARCH  ?=
ifeq ($(TINY_ARCH),aarch64)
TINY       := $(BUILD)/tiny-aarch64
TINY_CC    := aarch64-linux-musl-gcc
TINY_STRIP := aarch64-linux-gnu-strip
TINY_UAPI  := $(KERNEL_HEADERS_ARM64)
TINY_ASM   := $(TINY_UAPI)/asm
TINY_UAPI_DEP := $(KERNEL_HEADERS_ARM64).key
TINY_TABLE := aarch64
# TINY_ARCH=arm: the 32-bit armhf board's (EABI, hard-float; Thumb-2 code,
# Debian's default), with musl-dev:armhf's wrapper against the arm UAPI
# headers (make kernel-headers-arm), as build/tiny-arm/tracebox.
else ifeq ($(TINY_ARCH),arm)
TINY       := $(BUILD)/tiny-arm
TINY_CC    := arm-linux-musleabihf-gcc
TINY_STRIP := arm-linux-gnueabihf-strip
TINY_UAPI  := $(KERNEL_HEADERS_ARM)
TINY_ASM   := $(TINY_UAPI)/asm
TINY_UAPI_DEP := $(KERNEL_HEADERS_ARM).key
TINY_TABLE := arm
# TINY_ARCH=s390x: the big-endian s390x board's, with musl-dev:s390x's wrapper
# against the s390 UAPI headers (make kernel-headers-s390), as
# build/tiny-s390x/tracebox.
else ifeq ($(TINY_ARCH),s390x)
TINY       := $(BUILD)/tiny-s390x
TINY_CC    := s390x-linux-musl-gcc
TINY_STRIP := s390x-linux-gnu-strip
TINY_UAPI  := $(KERNEL_HEADERS_S390)
TINY_ASM   := $(TINY_UAPI)/asm
TINY_UAPI_DEP := $(KERNEL_HEADERS_S390).key
TINY_TABLE := s390x
else ifneq ($(TINY_ARCH),)
$(error TINY_ARCH=$(TINY_ARCH): aarch64, arm or s390x (or none: the host's))
endif
TINY       ?= $(BUILD)/tiny
TINY_CC    ?= musl-gcc
TINY_UAPI  ?= /usr/include
TINY_ASM   ?= /usr/include/$(shell gcc -print-multiarch 2>/dev/null)/asm
TINY_STRIP ?= strip
TINY_TABLE ?= $(shell uname -m)
TINY_GOAL  := 204800
TINY_APPLETS := trace-list trace-record
# What trace-record and trace-list need, and no more: common/ without the
# decoder (libtraceevent), zstd (common/tiny/pd_nocomp.c refuses -z) and
# zlib (the payload is stored: common/tiny/payload_stored.c).
TINY_SRC := applets/main.c applets/applets.c applets/args.c applets/xfuncs.c applets/trace_list.c \
	$(addprefix applets/record/,trace_record.c record_events.c record_profile.c \
		record_callgraph.c) \
	engines/catalogue.c engines/registry.c \
	$(addprefix common/util/,bytebuf.c cpulist.c io.c payload.c tb_err.c) \
	$(addprefix common/record/,buildids.c dso_hits.c event_names.c pd_wbuild.c pd_wfeatures.c pd_writer.c pd_wsys.c \
		recorder.c ring.c synth.c td_write.c) \
	$(addprefix common/tracepoint/,syscall_map.c tracefs.c) common/symbols/elf_buildid.c \
	common/tiny/pd_nocomp.c common/tiny/payload_stored.c
TINY_OBJ := $(patsubst %.c,$(TINY)/obj/%.o,$(TINY_SRC)) \
	$(addprefix $(TINY)/obj/gen/,syscalls_builtin.o applets_table.o payload.o)
# musl has no kernel headers: only linux/, asm/ and asm-generic/ of the
# system's uapi headers, through links in a folder of their own (no glibc
# header comes with them), searched after musl's.
TINY_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-idirafter $(TINY)/uapi \
	-Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables

# No RELRO segment: in a static binary it guards little, and its page
# alignment pads the file (32 KB of the aarch64 build's 198 KB).
TINY_LDFLAGS := -static -Wl,--gc-sections -Wl,-z,norelro

.PHONY: tiny
tiny: $(TINY)/tracebox $(addprefix $(TINY)/,$(TINY_APPLETS))

$(TINY)/uapi/.links: $(TINY_UAPI_DEP)
	@mkdir -p $(dir $@)
	ln -sfn $(TINY_UAPI)/linux $(TINY)/uapi/linux
	ln -sfn $(TINY_UAPI)/asm-generic $(TINY)/uapi/asm-generic
	ln -sfn $(TINY_ASM) $(TINY)/uapi/asm
	@touch $@

$(TINY)/obj/%.o: %.c $(TINY)/uapi/.links
	@mkdir -p $(dir $@)
	$(TINY_CC) $(TINY_CFLAGS) $(call inc_of,$*) $(DEPFLAGS) -c $< -o $@

$(TINY)/gen/applets.list: $(APPLET_LIST)
	@mkdir -p $(dir $@)
	grep -E '^($(subst $() ,|,$(TINY_APPLETS)))[[:space:]]' $< >$@

$(TINY)/gen/applets_table.c: $(TINY)/gen/applets.list scripts/tools/gen-applets.sh
	@scripts/tools/gen-applets.sh $< $@

$(TINY)/gen/payload.c: scripts/tools/gen-payload.py $(shell find scripts/python/bin scripts/perl/bin -type f)
	@mkdir -p $(dir $@)
	@scripts/tools/gen-payload.py $(TINY)/gen/payload.bin $@ --store records=scripts

# the board's own syscall table only (the others are the host's business)
$(TINY)/obj/gen/syscalls_builtin.o: $(GEN_SRC) $(TINY)/uapi/.links mk/tiny.mk
	@mkdir -p $(dir $@)
	$(TINY_CC) $(TINY_CFLAGS) $(INC_common) -DSCMAP_ONLY -DSCMAP_ONLY_$(TINY_TABLE) -c $< -o $@

$(TINY)/obj/gen/%.o: $(TINY)/gen/%.c
	@mkdir -p $(dir $@)
	$(TINY_CC) $(TINY_CFLAGS) $(call inc_of,gen/$*) -c $< -o $@

$(TINY)/tracebox: $(TINY_OBJ) mk/tiny.mk
	$(TINY_CC) $(TINY_LDFLAGS) -o $@ $(TINY_OBJ)
	@$(TINY_STRIP) -o $@.stripped $@
	@echo "  TINY    $@: $$(stat -c %s $@) bytes, $$(stat -c %s $@.stripped) stripped" \
		"(goal: at most $(TINY_GOAL))"

$(addprefix $(TINY)/,$(TINY_APPLETS)): $(TINY)/tracebox
	ln -sf tracebox $@

-include $(TINY_OBJ:.o=.d)
