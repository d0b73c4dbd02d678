# qemu.mk - the guests: `make initramfs` (`initramfs-arm64`, `initramfs-arm`,
# `initramfs-s390x`), `make boards` (every board of QEMU_BOARDS brought up to
# date at once: kernel, UAPI headers, tiny recorder, busybox, initramfs, under
# one jobserver of nproc + 1 jobs, so the boards build side by side where the
# cores allow; serial on one CPU), `make qemu-check` (make boards, then each
# board's test plan in QEMU, x86, arm64, the 32-bit arm one and the
# big-endian s390x one, side by side as the cores allow, each followed by
# the host's checks of what it sent back), `make qemu-shell` (ARCH=arm64, ARCH=arm, ARCH=s390x: those boards').
INITRAMFS := $(BUILD)/initramfs.cpio.gz
INITRAMFS_DEPS := $(wildcard initramfs/*) $(APPLET_LIST) $(shell find scripts/python scripts/perl -type f \
		  ! -path '*/__pycache__/*' 2>/dev/null)

.PHONY: initramfs qemu-check qemu-shell
initramfs: $(INITRAMFS)

$(INITRAMFS): $(BUILD)/tracebox $(BUILD)/workload $(BUILD)/kmod-x86_64/tbmod.ko $(INITRAMFS_DEPS)
	@BUILD=$(BUILD) initramfs/build.sh $@

# QEMU_BOARDS picks some (make qemu-check QEMU_BOARDS=arm); the boards whose
# packages are there are built first, side by side (make boards, going on past
# a board that fails); then each board's plan: a board's prepare step (qemu/
# host-board.sh) says SKIP with the missing package, or FAIL when its build
# failed, as it does run alone
# The plans run side by side, QEMU_JOBS at a time (a board a CPU: each
# guest's TCG keeps one busy), each into $(BUILD)/qemu-check-BOARD.out,
# printed in board order when all are done.
QEMU_BOARDS ?= x86_64 arm64 arm s390x
QEMU_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
qemu-check:
	+@$(MAKE) --no-print-directory -k boards QEMU_BOARDS="$$(qemu/check.sh -r $(QEMU_BOARDS))" || true
	$(if $(filter x86_64,$(QEMU_BOARDS)),+@$(MAKE) --no-print-directory kernel initramfs)
	@echo "qemu boards: the plans of $(QEMU_BOARDS), $(QEMU_JOBS) at a time"
	@printf '%s\n' $(QEMU_BOARDS) | xargs -P $(QEMU_JOBS) -I{} sh -c \
		'BUILD=$(BUILD) qemu/check.sh -a $$1 >$(BUILD)/qemu-check-$$1.out 2>&1; \
		 echo $$? >$(BUILD)/qemu-check-$$1.rc' _ {}
	@x=0; for b in $(QEMU_BOARDS); do cat $(BUILD)/qemu-check-$$b.out; \
		[ "$$(cat $(BUILD)/qemu-check-$$b.rc)" = 0 ] || x=1; done; exit $$x

# make boards: one make -j(nproc + 1) over the boards' parts (the kernels'
# makes share its jobserver: kernel/kernel.mk), or the caller's jobserver
# when there is one it can use (kernel/jobserver/usable); each kernel logs to $(TRACEBOX_CACHE)/build-KARCH.log
# and prints its progress lines with its own tag (kernel-arm64: ...)
BOARDS_JOBS ?= $(shell n=$$(nproc); [ "$$n" -gt 1 ] && n=$$((n + 1)); echo $$n)
.PHONY: boards board-all $(addprefix board-,x86_64 arm64 arm s390x)
boards:
	+@if kernel/jobserver/usable; then j=; else j=-j$(BOARDS_JOBS); fi; \
	$(MAKE) --no-print-directory $$j board-all
board-all: $(addprefix board-,$(QEMU_BOARDS))

board-x86_64: kernel initramfs
# the x86 kernel's build.sh holds the shared tree's lock to its end: the
# other boards' kernels and headers start after it, instead of each holding
# a job slot while it waits
BOARDS_FIRST = $(if $(filter x86_64,$(QEMU_BOARDS)),kernel)

QEMU_BOARD := $(if $(filter arm64 aarch64,$(ARCH)),arm64,$(if $(filter arm armhf,$(ARCH)),arm,$(if $(filter s390x s390,$(ARCH)),s390x,x86_64)))
qemu-shell: $(if $(filter arm64,$(QEMU_BOARD)),kernel-arm64 initramfs-arm64,$(if $(filter arm,$(QEMU_BOARD)),kernel-arm initramfs-arm,$(if $(filter s390x,$(QEMU_BOARD)),kernel-s390 initramfs-s390x,kernel initramfs)))
	@BUILD=$(BUILD) qemu/run.sh -a $(QEMU_BOARD) -m shell

# The cross-built boards, one shape: $(1) the board (check.sh -a), $(2)
# TINY_ARCH, $(3) the tiny recorder's folder, $(4) the musl compiler, $(5) the
# strip, $(6) Debian's arch for busybox-static, $(7) the kernel's make target
# (kernel/kernel.mk), $(8) the test program's code flags (srcprog), $(9) extra
# files of the initramfs (the arm64 board's test module). Defines
# INITRAMFS_$(1), TINY_$(1), BUSYBOX_$(1), and the targets initramfs-$(1) and
# board-$(1) (make boards).
define cross_board
INITRAMFS_$(1) := $$(BUILD)/initramfs-$(1).cpio.gz
TINY_$(1)      := $$(BUILD)/$(3)
BUSYBOX_$(1)   := $$(TRACEBOX_CACHE)/busybox-$(6)/busybox

.PHONY: initramfs-$(1) board-kernel-$(1) board-tiny-$(1)
initramfs-$(1):
	+@$$(MAKE) --no-print-directory tiny TINY_ARCH=$(2)
	+@$$(MAKE) --no-print-directory $$(INITRAMFS_$(1))

$$(INITRAMFS_$(1)): $$(TINY_$(1))/tracebox $$(TINY_$(1))/workload $$(TINY_$(1))/srcprog $(9) \
		$$(BUSYBOX_$(1)) \
		initramfs/init initramfs/files-$(1).list initramfs/check-$(1).sh initramfs/check-board.sh \
		initramfs/demo.sh initramfs/build.sh initramfs/mkcpio.py
	@BUILD=$$(BUILD) FILES_LIST=initramfs/files-$(1).list STRIP=$(5) \
		initramfs/build.sh $$@

$$(TINY_$(1))/workload: tests/tools/workload.c
	@mkdir -p $$(dir $$@)
	$(4) -O2 -Wall -static -o $$@ $$<

$$(TINY_$(1))/srcprog: tests/tools/srcprog/main.c tests/tools/srcprog/lib.c tests/tools/srcprog/hot.h
	@mkdir -p $$(dir $$@)
	$(4) -O2 -g $(8) -Wall -static -Wl,--build-id -DSRCPROG_NO_CXX \
		-o $$@ tests/tools/srcprog/main.c tests/tools/srcprog/lib.c

$$(BUSYBOX_$(1)):
	@initramfs/busybox-arm64.sh $(6)

# make boards: the kernel, the tiny recorder (with the UAPI headers), busybox
# side by side; the initramfs when they are there
board-kernel-$(1): | $$(BOARDS_FIRST)
	+@$$(MAKE) --no-print-directory $(7)
board-tiny-$(1): | $$(BOARDS_FIRST)
	+@$$(MAKE) --no-print-directory tiny TINY_ARCH=$(2)
board-$(1): board-kernel-$(1) board-tiny-$(1) $$(BUSYBOX_$(1))
	+@$$(MAKE) --no-print-directory $$(INITRAMFS_$(1))
endef

# The arm64 board: the aarch64 tiny recorder (make tiny TINY_ARCH=aarch64),
# the workload cross-built with musl, Debian's busybox-static:arm64, the test
# module; the source-level test program for --call-graph dwarf on the board:
# C only, static, -O2 -g without frame pointers (the guest's copy stripped)
$(eval $(call cross_board,arm64,aarch64,tiny-aarch64,aarch64-linux-musl-gcc,aarch64-linux-gnu-strip,arm64,kernel-arm64,-fomit-frame-pointer,$(BUILD)/kmod-arm64/tbmod.ko))

# The 32-bit armhf board: the tiny recorder (make tiny TINY_ARCH=arm), the
# workload with musl-dev:armhf, Debian's busybox-static:armhf; the test
# program of the board's -g profile: ARM code with APCS frames, the ones the
# kernel's user callchain walks (Debian's armhf gcc makes Thumb-2, whose frame
# pointer is r7 in no fixed place); the guest's copy stripped
$(eval $(call cross_board,arm,arm,tiny-arm,arm-linux-musleabihf-gcc,arm-linux-gnueabihf-strip,armhf,kernel-arm,-marm -mapcs-frame -fno-omit-frame-pointer))

# The big-endian s390x board: the tiny recorder (make tiny TINY_ARCH=s390x),
# the workload with musl-dev:s390x, Debian's busybox-static:s390x; the test
# program of its --call-graph dwarf profile, as arm64's (the guest's copy
# stripped; the host unwinds with this one's .eh_frame)
$(eval $(call cross_board,s390x,s390x,tiny-s390x,s390x-linux-musl-gcc,s390x-linux-gnu-strip,s390x,kernel-s390,-fomit-frame-pointer))

# The boards' test module (tests/tools/kmod), built out of tree against
# each board's cached kernel build (its Module.symvers), in $(BUILD)/kmod-ARCH
# (the kernel's own `modules` step first: it writes Module.symvers)
KMOD_MAKE = $(MAKE) -s -C $(TRACEBOX_CACHE)/linux-source-6.1
# $(1) the board, $(2) its kernel image, $(3) the kernel's build folder and
# make variables
define kmod_rule
$$(BUILD)/kmod-$(1)/tbmod.ko: tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $(2)
	@mkdir -p $$(dir $$@)
	cp tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $$(dir $$@)
	+$$(KMOD_MAKE) O=$$(TRACEBOX_CACHE)/$(3) modules
	+$$(KMOD_MAKE) O=$$(TRACEBOX_CACHE)/$(3) M=$$(abspath $$(dir $$@)) modules
endef
$(eval $(call kmod_rule,x86_64,$(KERNEL_IMAGE),kbuild ARCH=x86_64))
$(eval $(call kmod_rule,arm64,$(KERNEL_IMAGE_ARM64),kbuild-arm64 ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-))
