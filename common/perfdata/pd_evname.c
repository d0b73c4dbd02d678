/* pd_evname.c - perf 6.1's default event names (tools/perf/util/evsel.c
 * evsel__name and evsel__add_modifiers), for attrs that come without an
 * EVENT_DESC name: pipe-mode recordings, files of other writers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include "perfdata/pd_evname.h"
#include "perfdata/pd_format.h"

/* attr flag bits */
#define EXCL_USER   (1ULL << 4)
#define EXCL_KERNEL (1ULL << 5)
#define EXCL_HV     (1ULL << 6)
#define PRECISE(f)  ((unsigned)((f) >> 15 & 3))
#define EXCL_HOST   (1ULL << 19)
#define EXCL_GUEST  (1ULL << 20)

struct nb { char *p; size_t cap, n; };

static void add(struct nb *b, const char *fmt, const char *s, uint64_t v)
{
	int r;

	if (b->n >= b->cap)
		return;
	r = s ? snprintf(b->p + b->n, b->cap - b->n, fmt, s)
	      : snprintf(b->p + b->n, b->cap - b->n, fmt, v);
	if (r > 0)
		b->n += (size_t)r < b->cap - b->n ? (size_t)r : b->cap - b->n - 1;
}

/* ":kuhpppHG", the parts perf prints (evsel__add_modifiers) */
static void modifiers(struct nb *b, uint64_t f)
{
	char m[12];
	size_t n = 0;
	int excl_guest_default = 0;

	if (f & (EXCL_KERNEL | EXCL_USER | EXCL_HV)) {
		if (!(f & EXCL_KERNEL))
			m[n++] = 'k';
		if (!(f & EXCL_USER))
			m[n++] = 'u';
		if (!(f & EXCL_HV))
			m[n++] = 'h';
		excl_guest_default = 1;
	}
	for (unsigned i = 0; i < PRECISE(f); i++)
		m[n++] = 'p';
	if (PRECISE(f))
		excl_guest_default = 1;
	if ((f & EXCL_HOST) || !!(f & EXCL_GUEST) == excl_guest_default) {
		if (!(f & EXCL_HOST))
			m[n++] = 'H';
		if (!(f & EXCL_GUEST))
			m[n++] = 'G';
	}
	if (!n)
		return;
	m[n] = 0;
	add(b, ":%s", m, 0);
}

static void cache_name(struct nb *b, uint64_t config)
{
	static const char *const type[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
					    "branch", "node" };
	static const char *const op[][2] = { { "load", "loads" }, { "store", "stores" },
					     { "prefetch", "prefetches" } };
	static const char *const res[] = { "refs", "misses" };
	/* which ops each cache has (evsel__hw_cache_stat) */
	static const unsigned valid[] = { 7, 5, 7, 7, 1, 1, 7 };
	unsigned t = config & 0xff, o = config >> 8 & 0xff, r = config >> 16 & 0xff;

	if (t >= 7)
		add(b, "%s", "unknown-ext-hardware-cache-type", 0);
	else if (o >= 3)
		add(b, "%s", "unknown-ext-hardware-cache-op", 0);
	else if (r >= 2)
		add(b, "%s", "unknown-ext-hardware-cache-result", 0);
	else if (!(valid[t] >> o & 1))
		add(b, "%s", "invalid-cache", 0);
	else if (r) {
		add(b, "%s-", type[t], 0);
		add(b, "%s-", op[o][0], 0);
		add(b, "%s", res[r], 0);
	} else {
		add(b, "%s-", type[t], 0);
		add(b, "%s", op[o][1], 0);
	}
}

void pd_evname(const unsigned char *attr, char *buf, size_t cap)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	};   /* perf 6.1's table stops there: bpf-output is "unknown-software" */
	uint32_t type = pd_u32(attr);
	uint64_t config = pd_u64(attr + 8), flags = pd_u64(attr + 40);
	struct nb b = { buf, cap, 0 };

	if (!cap)
		return;
	buf[0] = 0;
	switch (type) {
	case 0:
		add(&b, "%s", config < 10 ? hw[config] : "unknown-hardware", 0);
		break;
	case 1:
		add(&b, "%s", config < 10 ? sw[config] : "unknown-software", 0);
		break;
	case 2:
		add(&b, "%s", "unknown tracepoint", 0);
		return;
	case 3:
		cache_name(&b, config);
		break;
	case 4:
		add(&b, "raw 0x%" PRIx64, NULL, config);
		break;
	case 5: {
		uint32_t bp_type = pd_u32(attr + 52);

		add(&b, "mem:0x%" PRIx64 ":", NULL, pd_u64(attr + 56));
		if (bp_type & 1)
			add(&b, "%s", "r", 0);
		if (bp_type & 2)
			add(&b, "%s", "w", 0);
		if (bp_type & 4)
			add(&b, "%s", "x", 0);
		break;
	}
	default:
		add(&b, "unknown attr type: %" PRIu64, NULL, type);
		return;
	}
	modifiers(&b, flags);
}
