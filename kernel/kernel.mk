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

# The cross-built boards' kernels, one shape: $(1) KARCH (a line of
# kernel/boards), $(2) the image's name in the cache, $(3) the fragment merged
# on tinyconfig, $(4) the suffix of the variables: KERNEL_IMAGE_$(4) and
# KERNEL_HEADERS_$(4) (the UAPI headers, make headers ARCH=$(1), for the tiny
# recorder); the targets kernel-$(1) and kernel-headers-$(1).
define kernel_board
KERNEL_IMAGE_$(4)   := $$(TRACEBOX_CACHE)/$(2)
KERNEL_HEADERS_$(4) := $$(TRACEBOX_CACHE)/headers-$(1)/usr/include

.PHONY: kernel-$(1) kernel-headers-$(1)
kernel-$(1): $$(KERNEL_IMAGE_$(4))
$$(KERNEL_IMAGE_$(4)): $$(wildcard $$(KERNEL_TAR)) $$(wildcard kernel/*.patch) kernel/$(3) kernel/build.sh kernel/boards
	+@KARCH=$(1) $$(KERNEL_BUILD)

kernel-headers-$(1): $$(KERNEL_HEADERS_$(4)).key
$$(KERNEL_HEADERS_$(4)).key: $$(wildcard $$(KERNEL_TAR)) $$(wildcard kernel/*.patch) kernel/build.sh kernel/boards
	+@KARCH=$(1) $$(KERNEL_BUILD) headers
endef

# The arm64 board's kernel: the same series, cross-built (KARCH=arm64) from
# tinyconfig + kernel/tracebox-arm64.config, beside the x86 one in the cache.
$(eval $(call kernel_board,arm64,Image-arm64,tracebox-arm64.config,ARM64))

# The 32-bit armhf board's kernel (KARCH=arm): the same series, cross-built
# (arm-linux-gnueabihf-gcc) from tinyconfig + kernel/tracebox-armhf.config
# (ARMv7 multiplatform, the virt machine, virtio-mmio), and its UAPI headers.
$(eval $(call kernel_board,arm,zImage-arm,tracebox-armhf.config,ARM))

# The big-endian s390x board's kernel (KARCH=s390): the same series,
# cross-built (s390x-linux-gnu-gcc) from tinyconfig + kernel/tracebox-s390x.config
# (z196, the SCLP console, virtio-ccw), and its UAPI headers.
$(eval $(call kernel_board,s390,bzImage-s390,tracebox-s390x.config,S390))
