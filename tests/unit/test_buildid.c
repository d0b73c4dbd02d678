/* test_buildid.c - the ELF build-id reader (common/symbols/elf_buildid.h) on a
 * minimal ELF64 image built here, every truncation of it and hostile
 * sizes, and the hit tracker (common/record/dso_hits.h) on MMAP2, FORK, exec
 * COMM and SAMPLE records laid out as perf_event_open(2) writes them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elf.h>
#include <linux/perf_event.h>
#include "record/dso_hits.h"
#include "symbols/elf_buildid.h"
#include "perfdata/pd_format.h"
#include "unit.h"

static const uint8_t want_id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				     11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };

/* ELF64 header, one PT_NOTE program header, the note: 64 + 56 + 36 bytes. */
static size_t make_elf(unsigned char *b)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { 0 };
	Elf64_Nhdr nh = { 4, 20, NT_GNU_BUILD_ID };

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	ph.p_type = PT_NOTE;
	ph.p_offset = sizeof(eh) + sizeof(ph);
	ph.p_filesz = sizeof(nh) + 4 + 20;
	memcpy(b, &eh, sizeof(eh));
	memcpy(b + sizeof(eh), &ph, sizeof(ph));
	memcpy(b + ph.p_offset, &nh, sizeof(nh));
	memcpy(b + ph.p_offset + sizeof(nh), "GNU", 4);
	memcpy(b + ph.p_offset + sizeof(nh) + 4, want_id, 20);
	return ph.p_offset + ph.p_filesz;
}

static void test_elf(void)
{
	unsigned char b[256], h[256];
	uint8_t id[BUILDID_MAX];
	size_t n = make_elf(b), bad = 0;
	char hex[41];

	T_EQ(buildid_elf_mem(b, n, id), 20, "a PT_NOTE's build id is 20 bytes");
	T(!memcmp(id, want_id, 20), "and its bytes");
	buildid_hex(id, 20, hex);
	T_STR(hex, "0102030405060708090a0b0c0d0e0f1011121314", "as hex");
	for (size_t cut = 0; cut < n; cut++)
		bad += buildid_elf_mem(b, cut, id) != -1;
	T_EQ(bad, 0, "every truncation of the image: no build id");
	memcpy(h, b, n);
	memcpy(h + 64 + 32, &(uint64_t){ UINT64_MAX - 8 }, 8);          /* p_filesz */
	T_EQ(buildid_elf_mem(h, n, id), -1, "a note segment past the end: none");
	memcpy(h, b, n);
	memcpy(h + 64 + 8, &(uint64_t){ UINT64_MAX - 4 }, 8);           /* p_offset */
	T_EQ(buildid_elf_mem(h, n, id), -1, "a note segment offset that wraps: none");
	memcpy(h, b, n);
	memcpy(h + 120 + 4, &(uint32_t){ 0xfffffff0u }, 4);             /* descsz */
	T_EQ(buildid_elf_mem(h, n, id), -1, "a note whose desc runs past its segment: none");
	memcpy(h, b, n);
	memcpy(h + 120, &(uint32_t){ 0xfffffffdu }, 4);                 /* namesz */
	T_EQ(buildid_elf_mem(h, n, id), -1, "a note whose name size wraps: none");
	memcpy(h, b, n);
	h[EI_CLASS] = 7;
	T_EQ(buildid_elf_mem(h, n, id), -1, "an unknown ELF class: none");
	T_EQ(buildid_notes(b + 120, 36, id), 20, "a raw notes list (/sys/kernel/notes)");
	T_EQ(buildid_elf_file("/nonexistent/file", id), -1, "a missing file: none");
	T_EQ(buildid_elf_file("/proc", id), -1, "a directory: none");
	T_EQ(buildid_elf_file("/proc/self/status", id), -1, "a text file: none");
	T(buildid_elf_file("/proc/self/exe", id) > 0, "this test binary has one");
}

/* Records, little-endian, as the kernel writes them (no sample_id trailer). */
static size_t mmap2(unsigned char *b, uint32_t pid, uint64_t start, uint64_t len, const char *name)
{
	size_t nl = (strlen(name) + 8) & ~(size_t)7, size = 72 + nl;

	memset(b, 0, size);
	memcpy(b, &(uint32_t){ PD_REC_MMAP2 }, 4);
	memcpy(b + 4, &(uint16_t){ PERF_RECORD_MISC_USER }, 2);
	memcpy(b + 6, &(uint16_t){ (uint16_t)size }, 2);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	memcpy(b + 72, name, strlen(name));
	return size;
}

static size_t sample(unsigned char *b, uint16_t mode, uint32_t pid, uint64_t ip)
{
	memset(b, 0, 24);
	memcpy(b, &(uint32_t){ PD_REC_SAMPLE }, 4);
	memcpy(b + 4, &mode, 2);
	memcpy(b + 6, &(uint16_t){ 24 }, 2);
	memcpy(b + 8, &ip, 8);                 /* IP, then TID */
	memcpy(b + 16, &pid, 4);
	memcpy(b + 20, &pid, 4);
	return 24;
}

static size_t task(unsigned char *b, uint32_t type, uint16_t misc, uint32_t pid, uint32_t ppid)
{
	memset(b, 0, 40);
	memcpy(b, &type, 4);
	memcpy(b + 4, &misc, 2);
	memcpy(b + 6, &(uint16_t){ 40 }, 2);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &ppid, 4);
	return 40;
}

static int hit(const struct dso_hits *h, const char *name)
{
	for (size_t i = 0; i < h->nr_dsos; i++)
		if (!strcmp(h->dsos[i].name, name))
			return h->dsos[i].hit;
	return -1;
}

static void feed(struct dso_hits *h, unsigned char *b, size_t n)
{
	struct iovec v = { b, n };

	dso_hits_feed(h, &v, 1);
}

static void test_hits(void)
{
	static unsigned char b[4096];
	struct dso_hits h;
	size_t n = 0;
	struct iovec v[2];

	dso_hits_init(&h, 0);
	n += mmap2(b + n, 10, 0x1000, 0x1000, "/bin/a");
	n += mmap2(b + n, 10, 0x3000, 0x1000, "/lib/b");
	n += mmap2(b + n, 10, 0x5000, 0x1000, "/lib/c");
	n += task(b + n, PD_REC_FORK, 0, 11, 10);                /* 11 inherits 10's maps */
	n += sample(b + n, PERF_RECORD_MISC_USER, 11, 0x1800);    /* a, through the fork */
	n += mmap2(b + n, 10, 0x2800, 0x1000, "/lib/d");          /* covers b's first half */
	n += sample(b + n, PERF_RECORD_MISC_USER, 10, 0x3100);    /* d, not b */
	n += sample(b + n, PERF_RECORD_MISC_USER, 10, 0x9000);    /* no map */
	n += task(b + n, PD_REC_COMM, PD_MISC_COMM_EXEC, 10, 10); /* exec: 10's maps gone */
	n += sample(b + n, PERF_RECORD_MISC_USER, 10, 0x5100);    /* c no longer mapped */
	/* the chunk in two pieces, cut inside a record */
	v[0].iov_base = b;
	v[0].iov_len = 100;
	v[1].iov_base = b + 100;
	v[1].iov_len = n - 100;
	dso_hits_feed(&h, v, 2);
	T_EQ(hit(&h, "/bin/a"), 1, "a FORK's child samples its parent's maps");
	T_EQ(hit(&h, "/lib/d"), 1, "a new map wins where it overlaps");
	T_EQ(hit(&h, "/lib/b"), 0, "the map it covered is not hit");
	T_EQ(hit(&h, "/lib/c"), 0, "after an exec the old maps are gone");
	/* a record claiming more bytes than the chunk holds stops the walk */
	n = mmap2(b, 12, 0x1000, 0x1000, "/bin/e");
	memcpy(b + 6, &(uint16_t){ 0xfff0 }, 2);
	feed(&h, b, n);
	T_EQ(hit(&h, "/bin/e"), -1, "a record running past the chunk is not read");
	dso_hits_free(&h);
}

int main(void)
{
	test_elf();
	test_hits();
	return done();
}
