/* elf_buildid.c - read the NT_GNU_BUILD_ID note of an ELF object (elf(5):
 * ELF32/ELF64, little or big endian), from a file through pread or from an
 * image in memory, every offset and size checked against the object. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/elf_buildid.h"
#include "util/io.h"

#define NOTES_MAX (1u << 20)      /* a notes segment larger than this is not read */

/* Reads @len bytes at @off of the object into @buf; 0 or -1. */
struct src {
	int fd;
	const unsigned char *mem;
	uint64_t size;
};

static int src_read(const struct src *s, uint64_t off, void *buf, size_t len)
{
	if (off > s->size || len > s->size - off)
		return -1;
	if (s->mem) {
		memcpy(buf, s->mem + off, len);
		return 0;
	}
	return preadn(s->fd, buf, len, off) == (ssize_t)len ? 0 : -1;
}

static uint32_t get32(const unsigned char *p, int be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get64(const unsigned char *p, int be)
{
	return be ? (uint64_t)get32(p, 1) << 32 | get32(p + 4, 1)
		  : (uint64_t)get32(p + 4, 0) << 32 | get32(p, 0);
}

static uint16_t get16(const unsigned char *p, int be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static int notes_be(const unsigned char *p, size_t n, int be, uint8_t out[BUILDID_MAX])
{
	size_t pos = 0;

	while (n - pos >= 12) {
		uint32_t namesz = get32(p + pos, be), descsz = get32(p + pos + 4, be);
		uint32_t type = get32(p + pos + 8, be);
		size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
		size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;

		pos += 12;
		if (name_pad > n - pos || desc_pad > n - pos - name_pad)
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + pos, "GNU", 4) &&
		    descsz > 0) {
			int len = descsz < BUILDID_MAX ? (int)descsz : BUILDID_MAX;

			memcpy(out, p + pos + name_pad, (size_t)len);
			return len;
		}
		pos += name_pad + desc_pad;
	}
	return -1;
}

int buildid_notes(const unsigned char *p, size_t n, uint8_t out[BUILDID_MAX])
{
	return notes_be(p, n, 0, out);
}

/* The build id in the note area [off, off+size) of @s. */
static int note_area(const struct src *s, uint64_t off, uint64_t size, int be,
		     uint8_t out[BUILDID_MAX])
{
	unsigned char *buf;
	int r;

	if (!size || size > NOTES_MAX)
		return -1;
	buf = malloc((size_t)size);
	if (!buf)
		return -1;
	r = src_read(s, off, buf, (size_t)size) ? -1 : notes_be(buf, (size_t)size, be, out);
	free(buf);
	return r;
}

/* Program headers (PT_NOTE) first, then section headers (SHT_NOTE). */
static int from_elf(const struct src *s, uint8_t out[BUILDID_MAX])
{
	unsigned char eh[64], h[64];
	int is64, be, r;
	uint64_t phoff, shoff;
	uint16_t phentsize, phnum, shentsize, shnum;

	if (src_read(s, 0, eh, 52) || memcmp(eh, ELFMAG, SELFMAG))
		return -1;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	be = eh[EI_DATA] == ELFDATA2MSB;
	if ((!is64 && eh[EI_CLASS] != ELFCLASS32) || (!be && eh[EI_DATA] != ELFDATA2LSB))
		return -1;
	if (is64 && src_read(s, 0, eh, 64))
		return -1;
	phoff = is64 ? get64(eh + 32, be) : get32(eh + 28, be);
	shoff = is64 ? get64(eh + 40, be) : get32(eh + 32, be);
	phentsize = get16(eh + (is64 ? 54 : 42), be);
	phnum = get16(eh + (is64 ? 56 : 44), be);
	shentsize = get16(eh + (is64 ? 58 : 46), be);
	shnum = get16(eh + (is64 ? 60 : 48), be);
	if (phentsize >= (is64 ? 56 : 32) && phentsize <= sizeof(h)) {
		for (uint16_t i = 0; i < phnum; i++) {
			if (src_read(s, phoff + (uint64_t)i * phentsize, h, phentsize))
				break;
			if (get32(h, be) != PT_NOTE)
				continue;
			r = is64 ? note_area(s, get64(h + 8, be), get64(h + 32, be), be, out)
				 : note_area(s, get32(h + 4, be), get32(h + 16, be), be, out);
			if (r > 0)
				return r;
		}
	}
	if (shentsize >= (is64 ? 64 : 40) && shentsize <= sizeof(h)) {
		for (uint16_t i = 0; i < shnum; i++) {
			if (src_read(s, shoff + (uint64_t)i * shentsize, h, shentsize))
				break;
			if (get32(h + 4, be) != SHT_NOTE)
				continue;
			r = is64 ? note_area(s, get64(h + 24, be), get64(h + 32, be), be, out)
				 : note_area(s, get32(h + 16, be), get32(h + 20, be), be, out);
			if (r > 0)
				return r;
		}
	}
	return -1;
}

int buildid_elf_mem(const unsigned char *p, size_t n, uint8_t out[BUILDID_MAX])
{
	struct src s = { -1, p, n };

	return from_elf(&s, out);
}

int buildid_elf_file(const char *path, uint8_t out[BUILDID_MAX])
{
	struct stat st;
	/* no size cap: only the headers and the notes are read */
	struct src s = { open_regular(path, 0, &st, NULL), NULL, 0 };
	int r;

	if (s.fd < 0)
		return -1;
	s.size = (uint64_t)st.st_size;
	r = from_elf(&s, out);
	close(s.fd);
	return r;
}

void buildid_hex(const uint8_t *id, int len, char *out)
{
	for (int i = 0; i < len; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[len > 0 ? 2 * len : 0] = 0;
}
