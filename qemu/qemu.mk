# qemu.mk - the guest: `make initramfs`, `make qemu-check` (the test plan in
# QEMU, then the host's checks of what it sent back), `make qemu-shell`.
INITRAMFS := $(BUILD)/initramfs.cpio.gz
INITRAMFS_DEPS := $(wildcard initramfs/*) $(APPLET_LIST) $(shell find scripts/python scripts/perl -type f \
		  ! -path '*/__pycache__/*' 2>/dev/null)

.PHONY: initramfs qemu-check qemu-shell
initramfs: $(INITRAMFS)

$(INITRAMFS): $(BUILD)/tracebox $(BUILD)/workload $(INITRAMFS_DEPS)
	@BUILD=$(BUILD) initramfs/build.sh $@

qemu-check: kernel initramfs
	@BUILD=$(BUILD) qemu/check.sh

qemu-shell: kernel initramfs
	@BUILD=$(BUILD) qemu/run.sh -m shell
