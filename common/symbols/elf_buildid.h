/* elf_buildid.h - the GNU build id of an ELF file, an ELF image in memory, or a raw notes blob. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ELF_BUILDID_H
#define ELF_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BUILDID_MAX 20

/**
 * buildid_notes - the NT_GNU_BUILD_ID note among the ELF notes @p[0..@n)
 * (/sys/kernel/notes holds such a list); copies at most BUILDID_MAX bytes
 * to @out. Returns the id's length, or -1.
 */
int buildid_notes(const unsigned char *p, size_t n, uint8_t out[BUILDID_MAX]);
/** buildid_elf_mem - the build id of the ELF image @p[0..@n) (its PT_NOTE
 * segments, else SHT_NOTE sections); the length, or -1 */
int buildid_elf_mem(const unsigned char *p, size_t n, uint8_t out[BUILDID_MAX]);
/** buildid_elf_file - the same for the file @path (missing, not ELF,
 * truncated or hostile: -1) */
int buildid_elf_file(const char *path, uint8_t out[BUILDID_MAX]);
/** buildid_hex - @id as lowercase hex in @out (2 * len + 1 bytes) */
void buildid_hex(const uint8_t *id, int len, char *out);

#endif
