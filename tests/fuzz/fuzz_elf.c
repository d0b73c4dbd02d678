/* fuzz_elf.c - libFuzzer target: the ELF symbol reader (common/symbols/sym_elf.c).
 * Input: one ELF file. Parsed as the symbols machine reads a DSO: build-id,
 * debuglink, .symtab then .dynsym with their fixups, PLT entries, perf's
 * tree replayed and sealed, then lookups; also as a debug file paired with itself cut short, as a DSO and
 * its debug file are. Checks that every symbol found contains its address. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "symbols/elf_buildid.h"
#include "symbols/sym_elf.h"
#include "symbols/sym_table.h"

static void lookups(struct sym_table *t)
{
	for (size_t i = 0; i < t->nr && i < 64; i++) {
		uint64_t a = t->syms[i].start;
		const struct sym_entry *e = sym_table_find(t, a);

		if (e && (a < e->start || (a > sym_end(e)) || strlen(sym_table_name(t, e)) > t->strs_len))
			abort();
		if (e && !sym_table_shown(t, e))
			abort();
		e = sym_table_find(t, a + 1);
		if (e && a + 1 < e->start)
			abort();
	}
}

static void load(struct sym_elf *ss, struct sym_elf *rs)
{
	struct sym_table t;

	sym_table_init(&t);
	sym_table_track(&t);          /* perf's tree replayed, as sym_dso.c loads */
	if (sym_elf_load_syms(&t, ss, rs, 1) > 0 && rs->dynsym)
		sym_elf_plt(&t, rs, 1);
	sym_table_seal(&t);
	lookups(&t);
	sym_table_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf = malloc(size ? size : 1), *half;   /* exact size: ASan sees overruns */
	unsigned char id[20];
	char why[256], link[512];
	struct sym_elf e, h;
	volatile size_t sink = 0;

	memcpy(buf, data, size);
	if (sym_elf_open_mem(&e, buf, size, why, sizeof(why)) == 0) {
		sink += sym_elf_build_id(&e, id);
		uint32_t crc;
		unsigned char *mini;
		size_t mlen = 0;

		if (sym_elf_debuglink(&e, link, sizeof(link), &crc) >= 0)
			sink += strlen(link) + crc;
		/* a MiniDebugInfo image: decoded within its bound, then read */
		if ((mini = sym_elf_debugdata(&e, &mlen))) {
			struct sym_elf m;

			if (sym_elf_open_mem(&m, mini, mlen, why, sizeof(why)) == 0) {
				load(&m, &e);
				sym_elf_close(&m);
			}
			free(mini);
		}
		load(&e, &e);
		/* the same image cut in half as the runtime file of a debug file */
		half = malloc(size / 2 ? size / 2 : 1);
		memcpy(half, data, size / 2);
		if (sym_elf_open_mem(&h, half, size / 2, why, sizeof(why)) == 0) {
			load(&e, &h);
			sym_elf_close(&h);
		}
		free(half);
		sym_elf_close(&e);
	} else {
		sink += strlen(why);
	}
	sink += (size_t)buildid_notes(data, size, id);
	free(buf);
	(void)sink;
	return 0;
}
