# kernel.mk - `make kernel`: the patched linux-source-6.1 bzImage (`make
# kernel-arm64`: the arm64 Image, `make kernel-arm`: the armhf zImage), built in a
# cache folder outside the repository (kernel/build.sh does the work).
# Each recipe is marked + and runs build.sh with kernel/jobserver first in
# PATH: under a make -jN (make boards), the kernel's make takes its jobs from
# that make's jobserver, so the boards building at once never run more than N
# jobs between them; JOBS=N still forces N; alone, nproc + 1 as before.
TRACEBOX_CACHE ?= $(HOME)/.cache/tracebox
KERNEL_IMAGE   := $(TRACEBOX_CACHE)/bzImage
KERNEL_TAR     ?= /usr/src/linux-source-6.1.tar.xz
export TRACEBOX_CACHE KERNEL_TAR
KERNEL_BUILD = PATH="$(CURDIR)/kernel/jobserver:$$PATH" kernel/build.sh

.PHONY: kernel
kernel: $(KERNEL_IMAGE)

# Rebuilt when the tarball, the series, the fragment or the script change;
# the script itself does nothing when its inputs are what they were.
$(KERNEL_IMAGE): $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/tracebox.config kernel/build.sh kernel/boards
	+@$(KERNEL_BUILD)

# The series against the kernel's own style checker (in the unpacked tree).
.PHONY: kernel-checkpatch
kernel-checkpatch: $(KERNEL_IMAGE)
	@$(TRACEBOX_CACHE)/linux-source-6.1/scripts/checkpatch.pl --strict kernel/*.patch

# The arm64 board's kernel: the same series, cross-built (KARCH=arm64) from
# tinyconfig + kernel/tracebox-arm64.config, beside the x86 one in the cache.
KERNEL_IMAGE_ARM64   := $(TRACEBOX_CACHE)/Image-arm64
# its UAPI headers (make headers ARCH=arm64), for the aarch64 tiny recorder
KERNEL_HEADERS_ARM64 := $(TRACEBOX_CACHE)/headers-arm64/usr/include

.PHONY: kernel-arm64 kernel-headers-arm64
kernel-arm64: $(KERNEL_IMAGE_ARM64)
$(KERNEL_IMAGE_ARM64): $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/tracebox-arm64.config kernel/build.sh kernel/boards
	+@KARCH=arm64 $(KERNEL_BUILD)

kernel-headers-arm64: $(KERNEL_HEADERS_ARM64).key
$(KERNEL_HEADERS_ARM64).key: $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/build.sh kernel/boards
	+@KARCH=arm64 $(KERNEL_BUILD) headers

# The 32-bit armhf board's kernel (KARCH=arm): the same series, cross-built
# (arm-linux-gnueabihf-gcc) from tinyconfig + kernel/tracebox-armhf.config
# (ARMv7 multiplatform, the virt machine, virtio-mmio), and its UAPI headers.
KERNEL_IMAGE_ARM   := $(TRACEBOX_CACHE)/zImage-arm
KERNEL_HEADERS_ARM := $(TRACEBOX_CACHE)/headers-arm/usr/include

.PHONY: kernel-arm kernel-headers-arm
kernel-arm: $(KERNEL_IMAGE_ARM)
$(KERNEL_IMAGE_ARM): $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/tracebox-armhf.config kernel/build.sh kernel/boards
	+@KARCH=arm $(KERNEL_BUILD)

kernel-headers-arm: $(KERNEL_HEADERS_ARM).key
$(KERNEL_HEADERS_ARM).key: $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/build.sh kernel/boards
	+@KARCH=arm $(KERNEL_BUILD) headers

# The big-endian s390x board's kernel (KARCH=s390): the same series,
# cross-built (s390x-linux-gnu-gcc) from tinyconfig + kernel/tracebox-s390x.config
# (z196, the SCLP console, virtio-ccw), and its UAPI headers.
KERNEL_IMAGE_S390   := $(TRACEBOX_CACHE)/bzImage-s390
KERNEL_HEADERS_S390 := $(TRACEBOX_CACHE)/headers-s390/usr/include

.PHONY: kernel-s390 kernel-headers-s390
kernel-s390: $(KERNEL_IMAGE_S390)
$(KERNEL_IMAGE_S390): $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/tracebox-s390x.config kernel/build.sh kernel/boards
	+@KARCH=s390 $(KERNEL_BUILD)

kernel-headers-s390: $(KERNEL_HEADERS_S390).key
$(KERNEL_HEADERS_S390).key: $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/build.sh kernel/boards
	+@KARCH=s390 $(KERNEL_BUILD) headers
