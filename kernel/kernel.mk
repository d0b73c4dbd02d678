# kernel.mk - `make kernel`: the patched linux-source-6.1 bzImage, built in a
# cache folder outside the repository (kernel/build.sh does the work).
TRACEBOX_CACHE ?= $(HOME)/.cache/tracebox
KERNEL_IMAGE   := $(TRACEBOX_CACHE)/bzImage
KERNEL_TAR     ?= /usr/src/linux-source-6.1.tar.xz
export TRACEBOX_CACHE KERNEL_TAR

.PHONY: kernel
kernel: $(KERNEL_IMAGE)

# Rebuilt when the tarball, the series, the fragment or the script change;
# the script itself does nothing when its inputs are what they were.
$(KERNEL_IMAGE): $(wildcard $(KERNEL_TAR)) $(wildcard kernel/*.patch) kernel/tracebox.config kernel/build.sh
	@kernel/build.sh

# The series against the kernel's own style checker (in the unpacked tree).
.PHONY: kernel-checkpatch
kernel-checkpatch: $(KERNEL_IMAGE)
	@$(TRACEBOX_CACHE)/linux-source-6.1/scripts/checkpatch.pl --strict kernel/*.patch
