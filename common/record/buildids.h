/* buildids.h - build ids of the files a recording hit: the HEADER_BUILD_ID feature and perf's build-id cache (~/.debug). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BUILDIDS_H
#define BUILDIDS_H

#include <stddef.h>
#include <stdint.h>
#include "record/dso_hits.h"
#include "symbols/elf_buildid.h"

struct bid_entry {
	const char *name;        /* the dso's name, owned by the dso_hits */
	int kernel, vdso;
	int listed;              /* in HEADER_BUILD_ID (else only cached: the kernel not hit) */
	uint8_t id[BUILDID_MAX];
	int len;
};

struct bid_list {
	struct bid_entry *e;
	size_t nr;
};

/**
 * bid_collect - the build id of every hit dso of @h that has one (and of
 * [vdso], hit or not, as perf; and of the kernel, hit or not, for the
 * cache only), in @h's order: the kernel's from /sys/kernel/notes, [vdso]'s from this process's
 * vdso (the same image for every process), a file's from its ELF notes.
 * Returns 0 or TB_ERR_NOMEM.
 */
int bid_collect(const struct dso_hits *h, struct bid_list *l);
/** bid_feature - @l's listed entries as perf's HEADER_BUILD_ID payload (one 36-byte entry
 * plus the name padded to 64 per dso); 0 or TB_ERR_NOMEM */
int bid_feature(const struct bid_list *l, unsigned char **out, size_t *len);
/**
 * bid_cache - put each entry in perf's build-id cache under @dir as perf
 * record does: DIR/PATH/HEX/elf (a hard link, else a copy) and an empty
 * probes file, DIR/[kernel.kallsyms]/HEX/kallsyms (/proc/kallsyms),
 * DIR/[vdso]/HEX/vdso, and DIR/.build-id/HE/X... links to them; a file's
 * separate debug info (/usr/lib/debug/.build-id/HE/X....debug) as
 * DIR/PATH/HEX/debug. Entries already cached are left alone. Returns how many entries
 * could not be cached.
 */
int bid_cache(const struct bid_list *l, const char *dir);
void bid_list_free(struct bid_list *l);

#endif
