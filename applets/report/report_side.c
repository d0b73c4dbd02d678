/* report_side.c - trace-report --show-task-events, --show-mmap-events and the
 * other --show-* options: print non-sample records among the samples as
 * perf script 6.1 does (builtin-script.c print_event_with_time, then
 * util/event.c perf_event__fprintf). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "perfdata/pd_session.h"
#include "report/report_fields.h"
#include "report/report_side.h"
#include "report/report_time.h"
#include "xfuncs.h"

#define MISC_COMM_EXEC          (1u << 13)
#define MISC_MMAP_DATA          (1u << 13)
#define MISC_SWITCH_OUT         (1u << 13)
#define MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define MISC_MMAP_BUILD_ID      (1u << 14)

enum {
	REC_SWITCH = 14, REC_SWITCH_CPU_WIDE = 15, REC_NAMESPACES = 16, REC_KSYMBOL = 17,
	REC_BPF_EVENT = 18, REC_CGROUP = 19,
};

static const char *const rec_names[] = {
	[PD_REC_MMAP] = "MMAP", [PD_REC_LOST] = "LOST", [PD_REC_COMM] = "COMM",
	[PD_REC_EXIT] = "EXIT", [PD_REC_FORK] = "FORK", [PD_REC_MMAP2] = "MMAP2",
	[REC_SWITCH] = "SWITCH", [REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[REC_NAMESPACES] = "NAMESPACES", [REC_KSYMBOL] = "KSYMBOL",
	[REC_BPF_EVENT] = "BPF_EVENT", [REC_CGROUP] = "CGROUP",
};

/* perf_ns__name */
static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

int report_side_cpu(const struct pd_record *r)
{
	return r->evsel->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL ? r->sample->cpu : 0;
}

unsigned report_side_types(const struct report_side_opts *o)
{
	unsigned t = 0;

	if (o->task)
		t |= 1u << PD_REC_COMM | 1u << PD_REC_FORK | 1u << PD_REC_EXIT;
	if (o->mmap)
		t |= 1u << PD_REC_MMAP | 1u << PD_REC_MMAP2;
	if (o->lost)
		t |= 1u << PD_REC_LOST;
	if (o->swtch)
		t |= 1u << REC_SWITCH | 1u << REC_SWITCH_CPU_WIDE;
	if (o->ns)
		t |= 1u << REC_NAMESPACES;
	if (o->cgroup)
		t |= 1u << REC_CGROUP;
	if (o->bpf)
		t |= 1u << REC_KSYMBOL | 1u << REC_BPF_EVENT;
	return t;
}

/* The first attr of @type in the recording, or NULL. */
static const struct pd_evsel *first_of_type(struct pd_session *s, uint32_t type)
{
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++)
		if (pd_session_evsel(s, i)->type == type)
			return pd_session_evsel(s, i);
	return NULL;
}

/* perf's default columns for @e's kind, less those whose sample bit the
 * first attr of that kind lacks (evsel__check_attr: not in a perf stat
 * record file). */
static void columns(struct pd_session *s, const struct pd_evsel *e, int *tid, int *cpu,
		    int *time)
{
	const struct pd_evsel *first = first_of_type(s, e->type);
	uint64_t st = first ? first->sample_type : e->sample_type;

	if (pd_session_has_feature(s, PD_FEAT_STAT))
		st = PD_S_TID | PD_S_CPU | PD_S_TIME;

	*tid = !!(st & PD_S_TID);
	*cpu = !!(st & PD_S_CPU);
	*time = !!(st & PD_S_TIME);
}

/* perf_sample__fprintf_start for a non-sample record. */
static void print_start(struct report_side *sd, const struct pd_record *r,
			const struct pd_sample *smp, const char *comm)
{
	FILE *fp = sd->out;
	int tid, cpu, time, pid = 0;
	uint64_t f = RF_COMM;

	if (sd->rf) {      /* the printer's fields, -F and perf's checks applied */
		f = sd->rf->t[rf_type_of(r->evsel->type)].fields;
		pid = !!(f & RF_PID);
		tid = !!(f & RF_TID);
		cpu = !!(f & RF_CPU);
		time = !!(f & RF_TIME);
	} else {           /* a script's run: perf's default columns */
		columns(sd->session, r->evsel, &tid, &cpu, &time);
	}
	if (!(f & RF_COMM))
		;
	else if (sd->latency)
		fprintf(fp, "%8.8s ", comm);
	else if (sd->rf ? (f & RF_IP) && (r->evsel->sample_type & PD_S_CALLCHAIN) &&
			  sd->rf->use_callchain : !!(r->evsel->sample_type & PD_S_CALLCHAIN))
		fprintf(fp, "%s ", comm);
	else
		fprintf(fp, "%16s ", comm);
	if (pid && tid)
		fprintf(fp, "%5d/%-5d ", smp->pid, smp->tid);
	else if (pid || tid)
		fprintf(fp, "%5d ", pid ? smp->pid : smp->tid);
	if (cpu)
		fprintf(fp, sd->latency ? "%3d " : "[%03d] ", smp->cpu);
	if (f & RF_MISC) {
		char l[8];
		int n = (int)rf_misc_letters(pd_u16(r->rec + 4), pd_u32(r->rec), l);

		fprintf(fp, "%.*s%*s", n, l, n < 6 ? 6 - n : 1, " ");
	}
	if (f & RF_TOD) {
		char tod[80];

		report_tod(tod, sizeof(tod), pd_session_info(sd->session), smp->time, sd->nsecs);
		fprintf(fp, "%s ", tod);
	}
	if (time) {
		uint64_t t = smp->time;

		if (sd->nsecs)
			fprintf(fp, "%5" PRIu64 ".%09" PRIu64 ": ", (uint64_t)(t / 1000000000ULL),
				(uint64_t)(t % 1000000000ULL));
		else {
			char b[48];

			snprintf(b, sizeof(b), "%" PRIu64 ".%06" PRIu64, (uint64_t)(t / 1000000000ULL),
				 (uint64_t)(t % 1000000000ULL / 1000ULL));
			fprintf(fp, "%12s: ", b);
		}
	}
}

static int too_short(const struct pd_record *r, const char *what, size_t need)
{
	error_msg("offset 0x%llx: %s record of %zu bytes is too short for its body (%zu)",
		  (unsigned long long)r->file_offset, what, r->size, need);
	return TB_ERR_STOP;
}

/* A string field at @at, bounded by @end: "%.*s" arguments. */
static int str_len(const unsigned char *rec, size_t at, size_t end)
{
	return at >= end ? 0 : (int)strnlen((const char *)rec + at, end - at);
}

/* MMAP2's body, perf_event__fprintf_mmap2's way. */
static int side_mmap2(FILE *fp, const struct pd_record *r, size_t end)
{
	const unsigned char *p = r->rec;
	uint16_t misc = pd_u16(p + 4);
	uint32_t prot, flags;
	char perm[5];

	if (end < 73)
		return too_short(r, "MMAP2", 73);
	prot = pd_u32(p + 64);
	flags = pd_u32(p + 68);
	perm[0] = prot & 1 ? 'r' : '-';
	perm[1] = prot & 2 ? 'w' : '-';
	perm[2] = prot & 4 ? 'x' : '-';
	perm[3] = flags & 1 ? 's' : 'p';
	perm[4] = 0;
	fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
		(int32_t)pd_u32(p + 8), (int32_t)pd_u32(p + 12), pd_u64(p + 16),
		pd_u64(p + 24), pd_u64(p + 32));
	if (misc & MISC_MMAP_BUILD_ID) {
		unsigned n = p[40] > 20 ? 20 : p[40];

		fputs(" <", fp);
		for (unsigned i = 0; i < n; i++)
			fprintf(fp, "%02x", p[44 + i]);
		fputc('>', fp);
	} else {
		fprintf(fp, " %02x:%02x %" PRIu64 " %" PRIu64, pd_u32(p + 40),
			pd_u32(p + 44), pd_u64(p + 48), pd_u64(p + 56));
	}
	fprintf(fp, "]: %s %.*s\n", perm, str_len(p, 72, end), (const char *)p + 72);
	return 0;
}

/* NAMESPACES' body, perf_event__fprintf_namespaces' way. */
static int side_namespaces(FILE *fp, const struct pd_record *r, size_t end)
{
	const unsigned char *p = r->rec;
	uint64_t nr;

	if (end < 24)
		return too_short(r, "NAMESPACES", 24);
	nr = pd_u64(p + 16);
	if (nr > (end - 24) / 16)
		return too_short(r, "NAMESPACES", 24 + 16 * (size_t)(nr > 4096 ? 4096 : nr));
	fprintf(fp, " %d/%d - nr_namespaces: %u\n\t\t[", (int32_t)pd_u32(p + 8),
		(int32_t)pd_u32(p + 12), (unsigned)nr);
	for (uint64_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			fprintf(fp, "\n\t\t ");
		fprintf(fp, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
			i < 7 ? ns_names[i] : "(null)", pd_u64(p + 24 + i * 16),
			pd_u64(p + 32 + i * 16), i + 1 != nr ? ", " : "]\n");
	}
	return 0;
}

/* The body after "PERF_RECORD_NAME" (perf_event__fprintf). */
int report_side_body(FILE *fp, const struct pd_record *r, size_t end)
{
	const unsigned char *p = r->rec;
	uint32_t type = pd_u32(p);
	uint16_t misc = pd_u16(p + 4);

	switch (type) {
	case PD_REC_COMM:
		if (end < 17)
			return too_short(r, "COMM", 17);
		fprintf(fp, "%s: %.*s:%d/%d\n", misc & MISC_COMM_EXEC ? " exec" : "",
			str_len(p, 16, end), (const char *)p + 16, (int32_t)pd_u32(p + 8),
			(int32_t)pd_u32(p + 12));
		return 0;
	case PD_REC_FORK:
	case PD_REC_EXIT:
		if (end < 32)
			return too_short(r, rec_names[type], 32);
		fprintf(fp, "(%d:%d):(%d:%d)\n", (int32_t)pd_u32(p + 8), (int32_t)pd_u32(p + 16),
			(int32_t)pd_u32(p + 12), (int32_t)pd_u32(p + 20));
		return 0;
	case PD_REC_MMAP:
		if (end < 41)
			return too_short(r, "MMAP", 41);
		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int32_t)pd_u32(p + 8), (int32_t)pd_u32(p + 12), pd_u64(p + 16),
			pd_u64(p + 24), pd_u64(p + 32), misc & MISC_MMAP_DATA ? 'r' : 'x',
			str_len(p, 40, end), (const char *)p + 40);
		return 0;
	case PD_REC_MMAP2:
		return side_mmap2(fp, r, end);
	case PD_REC_LOST:
		if (end < 24)
			return too_short(r, "LOST", 24);
		fprintf(fp, " lost %" PRIu64 "\n", pd_u64(p + 16));
		return 0;
	case REC_SWITCH:
	case REC_SWITCH_CPU_WIDE: {
		int out = !!(misc & MISC_SWITCH_OUT);
		const char *io = !out ? "IN         " :
				 !(misc & MISC_SWITCH_OUT_PREEMPT) ? "OUT        " : "OUT preempt";

		if (type == REC_SWITCH) {
			fprintf(fp, " %s\n", io);
			return 0;
		}
		if (end < 16)
			return too_short(r, "SWITCH_CPU_WIDE", 16);
		fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
			(int32_t)pd_u32(p + 8), (int32_t)pd_u32(p + 12));
		return 0;
	}
	case REC_NAMESPACES:
		return side_namespaces(fp, r, end);
	case REC_CGROUP:
		if (end < 17)
			return too_short(r, "CGROUP", 17);
		fprintf(fp, " cgroup: %" PRIu64 " %.*s\n", pd_u64(p + 8), str_len(p, 16, end),
			(const char *)p + 16);
		return 0;
	case REC_KSYMBOL:
		if (end < 24)           /* an empty name: no bytes of it */
			return too_short(r, "KSYMBOL", 24);
		fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
			pd_u64(p + 8), pd_u32(p + 16), pd_u16(p + 20), pd_u16(p + 22),
			str_len(p, 24, end), (const char *)p + 24);
		return 0;
	case REC_BPF_EVENT:
		if (end < 16)
			return too_short(r, "BPF_EVENT", 16);
		fprintf(fp, " type %u, flags %u, id %u\n", pd_u16(p + 8), pd_u16(p + 10),
			pd_u32(p + 12));
		return 0;
	default:
		fputc('\n', fp);
		return 0;
	}
}

/* The pid and tid perf looks the thread up by, per record type. */
static void record_thread(const struct pd_record *r, const struct pd_sample *smp,
			  int32_t *pid, int32_t *tid)
{
	const unsigned char *p = r->rec;

	switch (pd_u32(p)) {
	case PD_REC_COMM: case PD_REC_MMAP: case PD_REC_MMAP2: case REC_NAMESPACES:
		*pid = (int32_t)pd_u32(p + 8);
		*tid = (int32_t)pd_u32(p + 12);
		break;
	case PD_REC_FORK: case PD_REC_EXIT:
		*pid = (int32_t)pd_u32(p + 8);
		*tid = (int32_t)pd_u32(p + 16);
		break;
	default:
		*pid = smp->pid;
		*tid = smp->tid;
		break;
	}
}

int report_side_record(struct report_side *sd, const struct pd_record *r)
{
	uint32_t type = pd_u32(r->rec);
	struct pd_sample smp = *r->sample;
	const char *comm = ":-1";
	int32_t pid, tid;
	size_t end = r->size;
	int sample_id_all = !!(r->evsel->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL);

	if (type >= 32 || !(sd->types >> type & 1))
		return 0;
	if (sample_id_all) {
		size_t tr = pd_trailer_size(r->evsel->sample_type);

		end = r->size > tr ? r->size - tr : 0;
	}
	record_thread(r, &smp, &pid, &tid);
	if (!sample_id_all) {
		/* perf fills the sample from the record itself */
		smp.cpu = 0;
		smp.pid = pid;
		smp.tid = tid;
		smp.time = (type == PD_REC_FORK || type == PD_REC_EXIT) && end >= 32 ?
			   pd_u64(r->rec + 24) : 0;
	}
	if (tid != -1 && !(comm = pd_session_comm(sd->session, pid, tid)))
		return TB_ERR_NOMEM;
	print_start(sd, r, &smp, comm);
	fprintf(sd->out, "PERF_RECORD_%s", rec_names[type]);
	return report_side_body(sd->out, r, end);
}
