/* syscall_map.h - syscall numbers to names: from the kernel, a built-in table, or a recording. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYSCALL_MAP_H
#define SYSCALL_MAP_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

struct sc_entry {
	uint32_t nr;
	char *name;
};

struct syscall_map {
	char *arch;              /* "x86_64" */
	char *source;            /* where the names came from */
	struct sc_entry *ents;   /* sorted by nr */
	uint32_t nr;
};

/* The tables generated at build time from the kernel source (build/gen),
 * one per arch (x86_64, aarch64), ended by one whose arch is NULL; none at
 * all when the source was not installed. */
struct sc_builtin_table {
	const char *arch;        /* uname -m: "x86_64", "aarch64" */
	const char *source;      /* the file it was generated from */
	uint32_t nr;             /* lines in @text */
	const char *text;        /* "NR NAME\n" lines, by number */
};
extern const struct sc_builtin_table scmap_builtin_tables[];

/** scmap_from_text - parse "NR NAME" lines (the patched kernel's tracefs syscall_map) */
int scmap_from_text(struct syscall_map *m, const char *text, size_t len, const char *arch,
		    const char *source);
/** scmap_builtin_find - the build-time table for @arch ("arm64" is "aarch64", "armv7l" "arm"), or NULL */
const struct sc_builtin_table *scmap_builtin_find(const char *arch);
/** scmap_from_builtin - the build-time table of @arch; TB_ERR_UNSUPPORTED if there is none */
int scmap_from_builtin(struct syscall_map *m, const char *arch, struct tb_err *err);
/** scmap_load - the kernel's map from @tracefs when it has one, else the built-in table */
int scmap_load(struct syscall_map *m, const char *tracefs, const char *arch, struct tb_err *err);

/** scmap_encode - the private feature payload: u32 version 1, string arch, string
 * source, u32 nr, nr x {u32 nr, string name}; strings are u32 len + bytes with NUL */
int scmap_encode(const struct syscall_map *m, unsigned char **out, size_t *len);
int scmap_decode(struct syscall_map *m, const unsigned char *buf, size_t len, uint64_t base,
		 struct tb_err *err);

/** scmap_name - the name of syscall @nr, or NULL */
const char *scmap_name(const struct syscall_map *m, uint32_t nr);
void scmap_free(struct syscall_map *m);

#endif
