/* dso_hits.h - follow a recording's MMAP/MMAP2/FORK/COMM records and mark the files its samples hit. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DSO_HITS_H
#define DSO_HITS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct dh_dso {
	char *name;              /* "/usr/lib/.../libc.so.6", "[kernel.kallsyms]", "[vdso]" */
	int kernel;              /* the kernel or a module */
	int hit;
};

struct dh_proc;

struct dso_hits {
	int identifier;          /* samples begin with IDENTIFIER */
	struct dh_proc *procs;   /* sorted by pid; pid -1 holds the kernel maps */
	size_t nr_procs, cap_procs;
	struct dh_dso *dsos;     /* in the order they first appeared (perf's dso list) */
	size_t nr_dsos;
	unsigned char *tmp;      /* a chunk whose records wrap the ring */
	size_t tmp_cap;
	int oom;
};

/*
 * Usage: dso_hits_init(h, identifier); dso_hits_feed() with every record
 * in file order (the synthesized ones too); then h->dsos[i].hit says which
 * files perf record's build-id pass would mark (the DSO of each sample's
 * ip, as build_id__mark_dso_hit does); dso_hits_free().
 */
void dso_hits_init(struct dso_hits *h, int identifier);
/** dso_hits_feed - whole records in 1..2 pieces (a ring chunk) */
void dso_hits_feed(struct dso_hits *h, const struct iovec *iov, int n);
void dso_hits_free(struct dso_hits *h);

#endif
