/* report_dump.c - trace-report -D/--dump-raw-trace: every record as perf
 * script 6.1 dumps it (util/session.c dump_event, dump_sample; the
 * per-type lines of util/event.c, machine.c, header.c): the record's offset,
 * size and type, its bytes in hex, the cpu and time, "PERF_RECORD_<type>"
 * and what perf prints for that type. Kernel records and samples come as
 * they are delivered (time order), perf's own records as they are read. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "perfdata/pd_sample_text.h"
#include "perfdata/pd_session.h"
#include "report/report_dump.h"
#include "symbols/symbols.h"
#include "report/report_side.h"
#include "report/report_extra.h"

static const char *const names[] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT", [5] = "THROTTLE",
	[6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ", [9] = "SAMPLE", [10] = "MMAP2",
	[11] = "AUX", [12] = "ITRACE_START", [13] = "LOST_SAMPLES", [14] = "SWITCH",
	[15] = "SWITCH_CPU_WIDE", [16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA", [67] = "BUILD_ID",
	[68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO", [71] = "AUXTRACE",
	[72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
};

/* perf_event__name */
static const char *rec_name(uint32_t type)
{
	if (type >= sizeof(names) / sizeof(names[0]))
		return "INVALID";
	return names[type] ? names[type] : "UNKNOWN";
}

void report_dump_init(struct report_dump *d, struct pd_session *s, FILE *out, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->session = s;
	d->out = out;
	d->path = path;
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++)
		d->combined |= pd_session_evsel(s, i)->sample_type;
	d->sample_id_all = pd_session_nr_evsels(s) &&
			   (pd_session_evsel(s, 0)->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL);
}

void report_dump_begin(struct report_dump *d)
{
	/* perf_session__open: perf script wants timestamps to order by */
	if (!pd_session_is_pipe(d->session) && pd_session_nr_evsels(d->session) &&
	    !d->sample_id_all)
		fprintf(d->out, "WARNING: No sample_id_all support, falling back to unordered "
			"processing\n");
}

/* trace_event: 16 bytes a line, hex then the printable characters. */
static void hex(FILE *fp, const unsigned char *p, size_t n)
{
	fprintf(fp, ".\n. ... raw event: size %zu bytes\n", n);
	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;

		fprintf(fp, ".  %04zx: ", i);
		for (size_t j = 0; j < 16; j++)
			fprintf(fp, j < k ? " %02x" : "   ", p[i + j < n ? i + j : 0]);
		fputs("  ", fp);
		for (size_t j = 0; j < k; j++)
			fputc(isprint(p[i + j]) && isascii(p[i + j]) ? p[i + j] : '.', fp);
		for (size_t j = k; j < 16; j++)
			fputc(' ', fp);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/* cpu_map__snprint: "0-3,6" */
static void cpus(FILE *fp, const int *v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		fprintf(fp, "%s%d", i ? "," : "", v[i]);
		if (j > i)
			fprintf(fp, "-%d", v[j]);
		i = j + 1;
	}
	fputc('\n', fp);
}

static double pd_double(const unsigned char *p)
{
	uint64_t u = pd_u64(p);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/* perf_record_cpu_map_data at @p (@size bytes): u16 type, then by type. */
static void cpu_map_data(FILE *fp, const unsigned char *p, size_t size)
{
	int v[1024];
	size_t n = 0;
	uint16_t type;

	p -= 8;           /* offsets below count from a record header */
	size += 8;
	type = size >= 10 ? pd_u16(p + 8) : 0xffff;
	if (type == 0 && size >= 12) {                 /* list of u16 */
		for (size_t i = 0; i < pd_u16(p + 10) && 12 + 2 * i + 2 <= size && n < 1024; i++)
			v[n++] = (int16_t)pd_u16(p + 12 + 2 * i);
	} else if (type == 1 && size >= 14) {           /* masks of u32 or u64 */
		uint16_t nr = pd_u16(p + 10), lsz = pd_u16(p + 12);
		size_t at = lsz == 8 ? 16 : 14;

		for (size_t m = 0; (lsz == 4 || lsz == 8) && m < nr &&
		     at + (m + 1) * lsz <= size; m++) {
			uint64_t w = lsz == 8 ? pd_u64(p + at + m * 8) : pd_u32(p + at + m * 4);

			for (unsigned b = 0; b < lsz * 8u && n < 1024; b++)
				if (w >> b & 1)
					v[n++] = (int)(m * lsz * 8 + b);
		}
	} else if (type == 2 && size >= 16) {           /* range */
		if (p[10])
			v[n++] = -1;
		for (int c = pd_u16(p + 12); c <= pd_u16(p + 14) && n < 1024; c++)
			v[n++] = c;
	} else {
		fputs("failed to get cpumap from event\n", fp);
		return;
	}
	cpus(fp, v, n);
}

static void cpu_map(FILE *fp, const unsigned char *p, size_t size)
{
	fputs(": ", fp);
	cpu_map_data(fp, p + 8, size - 8);
}

/* What perf prints after "PERF_RECORD_X" for the records it makes itself. */
static void user_body(struct report_dump *d, const struct pd_record *r)
{
	const unsigned char *p = r->rec;
	FILE *fp = d->out;
	size_t size = r->size;

	switch (pd_u32(p)) {
	case PD_REC_FINISHED_ROUND:
		fputs(d->unordered ? ": unhandled!\n" : "\n", fp);
		break;
	case PD_REC_ID_INDEX: {
		uint64_t nr = size >= 16 ? pd_u64(p + 8) : 0;

		fprintf(fp, " nr: %" PRIu64 "\n", nr);
		for (uint64_t i = 0; i < nr && 16 + (i + 1) * 32 <= size; i++) {
			const unsigned char *e = p + 16 + i * 32;

			fprintf(fp, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				"  tid: %" PRId64 "\n", pd_u64(e), pd_u64(e + 8),
				(int64_t)pd_u64(e + 16), (int64_t)pd_u64(e + 24));
		}
		break;
	}
	case PD_REC_THREAD_MAP: {
		uint64_t nr = size >= 16 ? pd_u64(p + 8) : 0;

		fprintf(fp, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr && 16 + (i + 1) * 24 <= size; i++)
			fprintf(fp, "%s%d", i ? ", " : "", (int)pd_u64(p + 16 + i * 24));
		fputc('\n', fp);
		break;
	}
	case PD_REC_CPU_MAP:
		cpu_map(fp, p, size);
		break;
	case PD_REC_EVENT_UPDATE: {
		uint64_t type = size >= 24 ? pd_u64(p + 8) : ~0ULL;

		fprintf(fp, "\n... id:    %" PRIu64 "\n", size >= 24 ? pd_u64(p + 16) : 0);
		if (type == 0 || type == 2)            /* UNIT, NAME */
			fprintf(fp, "... %s  %.*s\n", type == 0 ? "unit:" : "name:",
				(int)strnlen((const char *)p + 24, size - 24), (const char *)p + 24);
		else if (type == 1 && size >= 32)      /* SCALE: a double */
			fprintf(fp, "... scale: %f\n", pd_double(p + 24));
		else if (type == 3) {                  /* CPUS: a cpu map's data */
			fputs("... ", fp);
			cpu_map_data(fp, p + 24, size - 24);
		} else
			fprintf(fp, "... unknown type\n");
		break;
	}
	case PD_REC_TIME_CONV:
		if (size >= 32)
			fprintf(fp, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
				"\n... Time Zero       %" PRIu64 "\n", pd_u64(p + 8), pd_u64(p + 16),
				pd_u64(p + 24));
		if (size >= 56)
			fprintf(fp, "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64
				"\n... Cap Time Zero   %d\n... Cap Time Short  %d\n", pd_u64(p + 32),
				pd_u64(p + 40), p[48], p[49]);
		fprintf(fp, ": unhandled!\n");
		break;
	case PD_REC_FINISHED_INIT:
		fprintf(fp, ": unhandled!\n");
		break;
	case 75: case 76: case 77:      /* STAT_CONFIG, STAT, STAT_ROUND: perf's stat
					 * handler goes on the line (or ends it) */
		break;
	default:                /* attr, tracing data, features: perf's own lines */
		fputc('\n', fp);
		break;
	}
}

#define BRANCH_CALL_STACK (1ULL << 11)   /* PERF_SAMPLE_BRANCH_CALL_STACK */

/* branch_stack__printf: from, to, cycles, flags, the reserved bits, the
 * type; a call stack (LBR) as the addresses it unwinds to */
static void branches(FILE *fp, const struct pd_sample *s, int callstack)
{
	fprintf(fp, "... branch %s: nr:%" PRIu64 "\n", callstack ? "callstack" : "stack",
		s->nr_branches + (callstack ? 1 : 0));
	for (uint64_t i = 0; i < s->nr_branches; i++) {
		const unsigned char *b = s->branches + 24 * i;
		uint64_t fl = pd_u64(b + 16);

		if (callstack) {
			if (i == 0)
				fprintf(fp, "..... %2d: %016" PRIx64 "\n", 0, pd_u64(b + 8));
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i + 1, pd_u64(b));
			continue;
		}
		fprintf(fp, "..... %2d: %016" PRIx64 " -> %016" PRIx64 " %u cycles %s%s%s%s %x %s\n",
			(int)i, pd_u64(b), pd_u64(b + 8), (unsigned)(fl >> 4 & 0xffff),
			fl & 1 ? "M" : " ", fl & 2 ? "P" : " ", fl & 8 ? "A" : " ",
			fl & 4 ? "T" : " ", (unsigned)(fl >> 33), report_branch_type(fl));
	}
}

/* regs__printf: a sample's user or interrupt registers, when it has them */
static void regs(FILE *fp, const char *type, uint64_t abi, uint64_t mask,
		 const unsigned char *vals)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	int i = 0;

	if (!vals)
		return;
	fprintf(fp, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", type, mask,
		abi < 3 ? abis[abi] : "unknown");
	for (int b = 0; b < 64; b++)
		if (mask & (1ULL << b))
			fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n", pd_reg_name(b),
				pd_u64(vals + 8 * i++));
}

/* dump_sample: the decoded sample's first fields, its chain, its read values. */
static void sample_body(struct report_dump *d, const struct pd_record *r)
{
	const struct pd_sample *s = r->sample;
	uint64_t st = r->evsel->sample_type;
	FILE *fp = d->out;
	char buf[32];

	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		pd_u16(r->rec + 4), s->pid, s->tid, s->ip, s->period, s->addr);
	if (st & PD_S_CALLCHAIN) {
		fprintf(fp, "... FP chain: nr:%" PRIu64 "\n", s->nr_callchain);
		for (uint64_t i = 0; i < s->nr_callchain; i++)
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i,
				pd_u64(s->callchain + i * 8));
	}
	if (st & PD_S_BRANCH_STACK)
		branches(fp, s, r->evsel->sattr.branch_sample_type & BRANCH_CALL_STACK);
	if (st & PD_S_REGS_USER)
		regs(fp, "user", s->user_regs_abi, r->evsel->sattr.regs_user, s->user_regs);
	if (st & PD_S_REGS_INTR)
		regs(fp, "intr", s->intr_regs_abi, r->evsel->sattr.regs_intr, s->intr_regs);
	if (st & PD_S_STACK_USER)
		fprintf(fp, "... ustack: size %" PRIu64 ", offset 0x%x\n",
			s->user_stack_size ? s->user_stack_dyn_size : 0, (unsigned)s->user_stack_off);
	if (st & (PD_S_WEIGHT | PD_S_WEIGHT_STRUCT)) {
		fprintf(fp, "... weight: %" PRIu64 "", s->weight);
		if (st & PD_S_WEIGHT_STRUCT)
			fprintf(fp, ",0x%x,0x%x", s->ins_lat, s->p_stage_cyc);
		fputc('\n', fp);
	}
	if (st & PD_S_DATA_SRC)
		fprintf(fp, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & PD_S_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & PD_S_DATA_PAGE_SIZE)
		fprintf(fp, " .. data page size: %s\n",
			report_page_size_name(buf, sizeof(buf), s->data_page_size));
	if (st & PD_S_CODE_PAGE_SIZE)
		fprintf(fp, " .. code page size: %s\n",
			report_page_size_name(buf, sizeof(buf), s->code_page_size));
	if (st & PD_S_TRANSACTION)
		fprintf(fp, "... transaction: %" PRIx64 "\n", s->transaction);
	if ((st & PD_S_READ) && s->read_nr == 1 && !s->read_values) {
		uint64_t rf = pd_u64(r->evsel->raw + 32);

		fprintf(fp, "... sample_read:\n");
		if (rf & 1)
			fprintf(fp, "...... time enabled %016" PRIx64 "\n", s->time_enabled);
		if (rf & 2)
			fprintf(fp, "...... time running %016" PRIx64 "\n", s->time_running);
		fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, s->read_id, s->read_value);
		if (rf & 16)
			fprintf(fp, ", lost %" PRIu64, s->read_lost);
		fputc('\n', fp);
	}
}

/* perf's dump_read: pid, tid, the event's name and value, then the values
 * its read_format names, each read where perf's fixed struct has it (0
 * past the record's end, which perf would read beyond). */
static void dump_read(struct report_dump *d, const struct pd_record *r)
{
	static const struct { uint64_t bit; const char *label; size_t at; } v[] = {
		{ 1 << 0, "time enabled", 24 }, { 1 << 1, "time running", 32 },
		{ 1 << 2, "id          ", 40 }, { 1 << 4, "lost        ", 48 },
	};
	const unsigned char *p = r->rec;
	uint64_t rf = pd_u64(r->evsel->raw + PD_ATTR_OFF_READ_FORMAT);

	fprintf(d->out, ": %d %d %s %" PRIu64 "\n", r->size >= 12 ? (int)pd_u32(p + 8) : 0,
		r->size >= 16 ? (int)pd_u32(p + 12) : 0, r->evsel->name,
		r->size >= 24 ? pd_u64(p + 16) : 0);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (rf & v[i].bit)
			fprintf(d->out, "... %s : %" PRIu64 "\n", v[i].label,
				r->size >= v[i].at + 8 ? pd_u64(p + v[i].at) : 0);
}

int report_dump_record(struct report_dump *d, const struct pd_record *r)
{
	uint32_t type = pd_u32(r->rec);
	FILE *fp = d->out;

	fprintf(fp, "\n%#" PRIx64 "@%s [%#zx]: event: %u\n", r->file_offset, d->path, r->size, type);
	hex(fp, r->rec, r->size);
	/* evlist__print_tstamp; perf's own records have a zeroed sample */
	if (type != PD_REC_SAMPLE && !d->sample_id_all) {
		fputs("-1 -1 ", fp);
	} else {
		if (d->combined & PD_S_CPU)
			fprintf(fp, "%u ", r->sample ? (uint32_t)r->sample->cpu : 0);
		if (d->combined & PD_S_TIME)
			fprintf(fp, "%" PRIu64 " ", r->sample ? r->sample->time : 0);
	}
	fprintf(fp, "%#" PRIx64 " [%#zx]: PERF_RECORD_%s", r->file_offset, r->size, rec_name(type));
	if (!r->evsel) {
		user_body(d, r);
	} else if (type == PD_REC_SAMPLE) {
		d->misc = pd_u16(r->rec + 4);
		sample_body(d, r);
	} else if (type == PD_REC_LOST) {
		if (!d->show_lost)     /* --show-lost-events replaces perf's handler */
			fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n",
				r->size >= 24 ? pd_u64(r->rec + 8) : 0,
				r->size >= 24 ? pd_u64(r->rec + 16) : 0);
	} else if (type == PD_REC_LOST_SAMPLES) {
		fprintf(fp, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", r->sample->id,
			r->size >= 16 ? pd_u64(r->rec + 8) : 0);
	} else if (type == PD_REC_EXIT && d->defer_exit) {
		/* perf script prints its --show-task-events line first:
		 * report_dump_exit() comes after it */
	} else if (type == 5 || type == 6) {
		/* perf script's throttle handler prints nothing, not even '\n' */
	} else if (type == PD_REC_READ) {
		dump_read(d, r);
		fprintf(fp, ": unhandled!\n");     /* perf script has no read handler */
	} else if (type == 11 || type == 12 || type == 20 || type == 21) {
		fprintf(fp, ": unhandled!\n");     /* AUX...: not dumped here */
	} else {
		size_t tr = d->sample_id_all ? pd_trailer_size(r->evsel->sample_type) : 0;

		return report_side_body(fp, r, r->size > tr ? r->size - tr : 0);
	}
	return 0;
}

void report_dump_resolved(struct report_dump *d, const struct pd_event *ev)
{
	unsigned cpumode = d->misc & 7;
	struct sym_machine *m = pd_session_symbols(d->session);
	const char *dso = cpumode == 3 ? "[hypervisor]" : "<not found>";
	struct sym_loc l;

	fprintf(d->out, " ... thread: %s:%d\n", ev->comm, ev->sample->tid);
	/* perf's dump_sample: the map's dso; the kernel map exists once perf
	 * saw the kernel's MMAP */
	if (cpumode == 1) {
		if (pd_session_stats(d->session)->nr_kernel_mmaps)
			dso = "[kernel.kallsyms]";
	} else if (cpumode != 3 && m &&
		   !sym_machine_resolve(m, ev->sample->pid, (uint16_t)cpumode, ev->sample->ip, &l) &&
		   l.have_map) {
		dso = l.dso;
	}
	fprintf(d->out, " ...... dso: %s\n", dso);
}

void report_dump_exit(struct report_dump *d, const struct pd_record *r)
{
	size_t tr = d->sample_id_all ? pd_trailer_size(r->evsel->sample_type) : 0;

	report_side_body(d->out, r, r->size > tr ? r->size - tr : 0);
}
