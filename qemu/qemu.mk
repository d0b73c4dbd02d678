# qemu.mk - the guests: `make initramfs` (`initramfs-arm64`, `initramfs-arm`),
# `make qemu-check` (each board's test plan in QEMU, x86, arm64, the 32-bit
# arm one, then the big-endian s390x one, each followed by the host's
# checks of what it sent back), `make qemu-shell` (ARCH=arm64, ARCH=arm,
# ARCH=s390x: those boards').
INITRAMFS := $(BUILD)/initramfs.cpio.gz
INITRAMFS_DEPS := $(wildcard initramfs/*) $(APPLET_LIST) $(shell find scripts/python scripts/perl -type f \
		  ! -path '*/__pycache__/*' 2>/dev/null)

.PHONY: initramfs qemu-check qemu-shell
initramfs: $(INITRAMFS)

$(INITRAMFS): $(BUILD)/tracebox $(BUILD)/workload $(BUILD)/kmod-x86_64/tbmod.ko $(INITRAMFS_DEPS)
	@BUILD=$(BUILD) initramfs/build.sh $@

# the arm boards build their parts themselves, or say which package is missing;
# QEMU_BOARDS picks some (make qemu-check QEMU_BOARDS=arm)
QEMU_BOARDS ?= x86_64 arm64 arm s390x
qemu-check: $(if $(filter x86_64,$(QEMU_BOARDS)),kernel initramfs)
	@x=0; for b in $(QEMU_BOARDS); do BUILD=$(BUILD) qemu/check.sh -a $$b || x=1; done; exit $$x

QEMU_BOARD := $(if $(filter arm64 aarch64,$(ARCH)),arm64,$(if $(filter arm armhf,$(ARCH)),arm,$(if $(filter s390x s390,$(ARCH)),s390x,x86_64)))
qemu-shell: $(if $(filter arm64,$(QEMU_BOARD)),kernel-arm64 initramfs-arm64,$(if $(filter arm,$(QEMU_BOARD)),kernel-arm initramfs-arm,$(if $(filter s390x,$(QEMU_BOARD)),kernel-s390 initramfs-s390x,kernel initramfs)))
	@BUILD=$(BUILD) qemu/run.sh -a $(QEMU_BOARD) -m shell

# The arm64 board: the aarch64 tiny recorder (make tiny TINY_ARCH=aarch64),
# the workload cross-built with musl, Debian's busybox-static:arm64.
INITRAMFS_ARM64 := $(BUILD)/initramfs-arm64.cpio.gz
TINY_AARCH64    := $(BUILD)/tiny-aarch64
BUSYBOX_ARM64   := $(TRACEBOX_CACHE)/busybox-arm64/busybox

.PHONY: initramfs-arm64
initramfs-arm64:
	@$(MAKE) --no-print-directory tiny TINY_ARCH=aarch64
	@$(MAKE) --no-print-directory $(INITRAMFS_ARM64)

$(INITRAMFS_ARM64): $(TINY_AARCH64)/tracebox $(TINY_AARCH64)/workload $(TINY_AARCH64)/srcprog \
		$(BUILD)/kmod-arm64/tbmod.ko \
		$(BUSYBOX_ARM64) \
		initramfs/init initramfs/files-arm64.list initramfs/check-arm64.sh initramfs/demo.sh \
		initramfs/build.sh initramfs/mkcpio.py
	@BUILD=$(BUILD) FILES_LIST=initramfs/files-arm64.list STRIP=aarch64-linux-gnu-strip \
		initramfs/build.sh $@

$(TINY_AARCH64)/workload: tests/tools/workload.c
	@mkdir -p $(dir $@)
	aarch64-linux-musl-gcc -O2 -Wall -static -o $@ $<

# the source-level test program for --call-graph dwarf on the board: C
# only, static, -O2 -g without frame pointers (the guest's copy stripped)
$(TINY_AARCH64)/srcprog: tests/tools/srcprog/main.c tests/tools/srcprog/lib.c tests/tools/srcprog/hot.h
	@mkdir -p $(dir $@)
	aarch64-linux-musl-gcc -O2 -g -fomit-frame-pointer -Wall -static -Wl,--build-id -DSRCPROG_NO_CXX \
		-o $@ tests/tools/srcprog/main.c tests/tools/srcprog/lib.c

$(BUSYBOX_ARM64):
	@initramfs/busybox-arm64.sh

# The 32-bit armhf board: the tiny recorder (make tiny TINY_ARCH=arm), the
# workload with musl-dev:armhf, Debian's busybox-static:armhf.
INITRAMFS_ARM := $(BUILD)/initramfs-arm.cpio.gz
TINY_ARM      := $(BUILD)/tiny-arm
BUSYBOX_ARMHF := $(TRACEBOX_CACHE)/busybox-armhf/busybox

.PHONY: initramfs-arm
initramfs-arm:
	@$(MAKE) --no-print-directory tiny TINY_ARCH=arm
	@$(MAKE) --no-print-directory $(INITRAMFS_ARM)

$(INITRAMFS_ARM): $(TINY_ARM)/tracebox $(TINY_ARM)/workload $(TINY_ARM)/srcprog $(BUSYBOX_ARMHF) \
		initramfs/init initramfs/files-arm.list initramfs/check-arm.sh initramfs/demo.sh \
		initramfs/build.sh initramfs/mkcpio.py
	@BUILD=$(BUILD) FILES_LIST=initramfs/files-arm.list STRIP=arm-linux-gnueabihf-strip \
		initramfs/build.sh $@

$(TINY_ARM)/workload: tests/tools/workload.c
	@mkdir -p $(dir $@)
	arm-linux-musleabihf-gcc -O2 -Wall -static -o $@ $<

# the test program of the board's -g profile: ARM code with APCS frames, the
# ones the kernel's user callchain walks (Debian's armhf gcc makes Thumb-2,
# whose frame pointer is r7 in no fixed place); the guest's copy stripped
$(TINY_ARM)/srcprog: tests/tools/srcprog/main.c tests/tools/srcprog/lib.c tests/tools/srcprog/hot.h
	@mkdir -p $(dir $@)
	arm-linux-musleabihf-gcc -O2 -g -marm -mapcs-frame -fno-omit-frame-pointer -Wall -static \
		-Wl,--build-id -DSRCPROG_NO_CXX -o $@ tests/tools/srcprog/main.c tests/tools/srcprog/lib.c

$(BUSYBOX_ARMHF):
	@initramfs/busybox-arm64.sh armhf

# The boards' test module (tests/tools/kmod), built out of tree against
# each board's cached kernel build (its Module.symvers), in $(BUILD)/kmod-ARCH
# (the kernel's own `modules` step first: it writes Module.symvers)
KMOD_MAKE = $(MAKE) -s -C $(TRACEBOX_CACHE)/linux-source-6.1
$(BUILD)/kmod-x86_64/tbmod.ko: tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $(KERNEL_IMAGE)
	@mkdir -p $(dir $@)
	cp tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $(dir $@)
	$(KMOD_MAKE) O=$(TRACEBOX_CACHE)/kbuild ARCH=x86_64 modules
	$(KMOD_MAKE) O=$(TRACEBOX_CACHE)/kbuild ARCH=x86_64 M=$(abspath $(dir $@)) modules

$(BUILD)/kmod-arm64/tbmod.ko: tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $(KERNEL_IMAGE_ARM64)
	@mkdir -p $(dir $@)
	cp tests/tools/kmod/tbmod.c tests/tools/kmod/Kbuild $(dir $@)
	$(KMOD_MAKE) O=$(TRACEBOX_CACHE)/kbuild-arm64 ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules
	$(KMOD_MAKE) O=$(TRACEBOX_CACHE)/kbuild-arm64 ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		M=$(abspath $(dir $@)) modules

# The big-endian s390x board: the tiny recorder (make tiny TINY_ARCH=s390x),
# the workload with musl-dev:s390x, Debian's busybox-static:s390x.
INITRAMFS_S390X := $(BUILD)/initramfs-s390x.cpio.gz
TINY_S390X      := $(BUILD)/tiny-s390x
BUSYBOX_S390X   := $(TRACEBOX_CACHE)/busybox-s390x/busybox

.PHONY: initramfs-s390x
initramfs-s390x:
	@$(MAKE) --no-print-directory tiny TINY_ARCH=s390x
	@$(MAKE) --no-print-directory $(INITRAMFS_S390X)

$(INITRAMFS_S390X): $(TINY_S390X)/tracebox $(TINY_S390X)/workload $(TINY_S390X)/srcprog $(BUSYBOX_S390X) \
		initramfs/init initramfs/files-s390x.list initramfs/check-s390x.sh initramfs/demo.sh \
		initramfs/build.sh initramfs/mkcpio.py
	@BUILD=$(BUILD) FILES_LIST=initramfs/files-s390x.list STRIP=s390x-linux-gnu-strip \
		initramfs/build.sh $@

$(TINY_S390X)/workload: tests/tools/workload.c
	@mkdir -p $(dir $@)
	s390x-linux-musl-gcc -O2 -Wall -static -o $@ $<

# the test program of the board's --call-graph dwarf profile, as arm64's
# (the guest's copy stripped; the host unwinds with this one's .eh_frame)
$(TINY_S390X)/srcprog: tests/tools/srcprog/main.c tests/tools/srcprog/lib.c tests/tools/srcprog/hot.h
	@mkdir -p $(dir $@)
	s390x-linux-musl-gcc -O2 -g -fomit-frame-pointer -Wall -static -Wl,--build-id -DSRCPROG_NO_CXX \
		-o $@ tests/tools/srcprog/main.c tests/tools/srcprog/lib.c

$(BUSYBOX_S390X):
	@initramfs/busybox-arm64.sh s390x
