/* record_callgraph.c - --call-graph fp|dwarf[,SIZE] and --user-regs into perf record 6.1's attr bits (its parse_callchain_record and parse_user_regs). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "record/record_callgraph.h"

#define DUMP_DEFAULT 8192
#define DUMP_MAX 65528          /* perf: USHRT_MAX rounded down to a u64 */

/* perf's user registers of this arch: name and number (perf_regs.h) */
struct reg_name {
	const char *name;
	int nr;
};

#if defined(__aarch64__)
static const struct reg_name regs[] = {
	{ "x0", 0 }, { "x1", 1 }, { "x2", 2 }, { "x3", 3 }, { "x4", 4 }, { "x5", 5 },
	{ "x6", 6 }, { "x7", 7 }, { "x8", 8 }, { "x9", 9 }, { "x10", 10 }, { "x11", 11 },
	{ "x12", 12 }, { "x13", 13 }, { "x14", 14 }, { "x15", 15 }, { "x16", 16 },
	{ "x17", 17 }, { "x18", 18 }, { "x19", 19 }, { "x20", 20 }, { "x21", 21 },
	{ "x22", 22 }, { "x23", 23 }, { "x24", 24 }, { "x25", 25 }, { "x26", 26 },
	{ "x27", 27 }, { "x28", 28 }, { "x29", 29 }, { "lr", 30 }, { "sp", 31 }, { "pc", 32 },
};
#define ALL_REGS ((1ULL << 33) - 1)
#elif defined(__s390x__)
static const struct reg_name regs[] = {
	{ "r0", 0 }, { "r1", 1 }, { "r2", 2 }, { "r3", 3 }, { "r4", 4 }, { "r5", 5 },
	{ "r6", 6 }, { "r7", 7 }, { "r8", 8 }, { "r9", 9 }, { "r10", 10 }, { "r11", 11 },
	{ "r12", 12 }, { "r13", 13 }, { "r14", 14 }, { "r15", 15 },
	{ "fp0", 16 }, { "fp1", 17 }, { "fp2", 18 }, { "fp3", 19 }, { "fp4", 20 },
	{ "fp5", 21 }, { "fp6", 22 }, { "fp7", 23 }, { "fp8", 24 }, { "fp9", 25 },
	{ "fp10", 26 }, { "fp11", 27 }, { "fp12", 28 }, { "fp13", 29 }, { "fp14", 30 },
	{ "fp15", 31 }, { "mask", 32 }, { "pc", 33 },
};
/* perf's PERF_REGS_MASK of s390: PERF_REG_S390_MAX registers */
#define ALL_REGS ((1ULL << 34) - 1)
#else
static const struct reg_name regs[] = {
	{ "AX", 0 }, { "BX", 1 }, { "CX", 2 }, { "DX", 3 }, { "SI", 4 }, { "DI", 5 },
	{ "BP", 6 }, { "SP", 7 }, { "IP", 8 }, { "FLAGS", 9 }, { "CS", 10 }, { "SS", 11 },
	{ "R8", 16 }, { "R9", 17 }, { "R10", 18 }, { "R11", 19 }, { "R12", 20 },
	{ "R13", 21 }, { "R14", 22 }, { "R15", 23 },
};
/* perf's PERF_REGS_MASK: every register but DS, ES, FS, GS */
#define ALL_REGS 0xff0fffULL
#endif

static int parse_regs(const char *list, uint64_t *mask, char *why, size_t n)
{
	char *copy = strdup(list), *save = NULL;

	*mask = 0;
	if (!copy) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			if (!strcasecmp(t, regs[i].name))
				break;
		if (i == sizeof(regs) / sizeof(regs[0])) {
			char names[256] = "";

			for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 k ? " " : "", regs[k].name);
			snprintf(why, n, "unknown register name: %.40s (available registers: %s)", t,
				 names);
			free(copy);
			return -1;
		}
		*mask |= 1ULL << regs[i].nr;
	}
	free(copy);
	if (!*mask) {
		snprintf(why, n, "no register named in --user-regs");
		return -1;
	}
	return 0;
}

static int parse_mode(const char *mode, struct rec_callgraph *out, char *why, size_t n)
{
	const char *comma = strchr(mode, ',');
	size_t len = comma ? (size_t)(comma - mode) : strlen(mode);

	if (len == 2 && !strncmp(mode, "fp", 2) && !comma) {
		out->callchain = 1;
		return 0;
	}
	if (len != 5 || strncmp(mode, "dwarf", 5)) {
		/* perf 6.1: util/callchain.c parse_callchain_record (lbr: no PMU here) */
		snprintf(why, n, "callchain: Unknown --call-graph option value: %s", mode);
		return -2;
	}
	out->callchain = out->dwarf = 1;
	out->stack_size = DUMP_DEFAULT;
	if (comma && comma[1]) {        /* "dwarf," is the default size, as perf */
		char *end;
		unsigned long long size = strtoull(comma + 1, &end, 0);

		if (*end || size > DUMP_MAX || !size) {
			/* perf 6.1: util/callchain.c get_stack_size */
			snprintf(why, n, "callchain: Incorrect stack dump size (max %d): %s", DUMP_MAX,
				 comma + 1);
			return -2;
		}
		out->stack_size = (size + 7) & ~7ULL;
	}
	return 0;
}

int rec_callgraph_parse(int g, const char *mode, const char *regs_list, struct rec_callgraph *out,
			char *why, size_t why_size)
{
	int r;

	memset(out, 0, sizeof(*out));
	out->callchain = g;
	if (mode && (r = parse_mode(mode, out, why, why_size)))
		return r;
	if (out->dwarf)
		out->regs_user = ALL_REGS;
	if (regs_list && parse_regs(regs_list, &out->regs_user, why, why_size))
		return -1;
	return 0;
}
