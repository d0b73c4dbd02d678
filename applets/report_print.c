/* report_print.c - print events as `perf script` 6.1 prints tracepoint samples:
 * "%16s %5d [%03d] %12s: %*s: <print fmt output>" (builtin-script.c
 * perf_sample__fprintf_start and process_event). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "pd_session.h"
#include "report_print.h"

int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs)
{
	const struct pd_evsel *first_tp = NULL;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->session = s;
	p->nsecs = nsecs;
	p->seq = malloc(sizeof(*p->seq));
	if (!p->seq)
		return -1;
	trace_seq_init(p->seq);
	/* perf drops a default column whose bit the first tracepoint attr lacks */
	for (size_t i = 0; i < pd_session_nr_evsels(s) && !first_tp; i++)
		if (pd_session_evsel(s, i)->type == PD_TYPE_TRACEPOINT)
			first_tp = pd_session_evsel(s, i);
	p->show_comm = 1;
	p->show_tid = !first_tp || (first_tp->sample_type & PD_S_TID);
	p->show_cpu = !first_tp || (first_tp->sample_type & PD_S_CPU);
	p->show_time = !first_tp || (first_tp->sample_type & PD_S_TIME);
	return 0;
}

void report_print_free(struct report_print *p)
{
	if (p->seq) {
		trace_seq_destroy(p->seq);
		free(p->seq);
	}
	p->seq = NULL;
}

static int max_name_len(struct pd_session *s)
{
	int max = 0;

	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		int len = (int)strlen(pd_session_evsel(s, i)->name);

		if (len > max)
			max = len;
	}
	return max;
}

int report_print_sample(void *ctx, const struct pd_event *ev)
{
	struct report_print *p = ctx;
	const struct pd_sample *smp = ev->sample;
	FILE *fp = p->out;

	if (p->show_comm) {
		if (smp->nr_callchain && (ev->evsel->sample_type & PD_S_CALLCHAIN))
			fprintf(fp, "%s ", ev->comm);
		else
			fprintf(fp, "%16s ", ev->comm);
	}
	if (p->show_tid)
		fprintf(fp, "%5d ", smp->tid);
	if (p->show_cpu)
		fprintf(fp, "[%03d] ", smp->cpu);
	if (p->show_time) {
		uint64_t secs = smp->time / 1000000000ULL, ns = smp->time % 1000000000ULL;

		if (p->nsecs) {
			fprintf(fp, "%5" PRIu64 ".%09" PRIu64 ": ", secs, ns);
		} else {
			char t[48];

			snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, secs, ns / 1000);
			fprintf(fp, "%12s: ", t);
		}
	}
	if (!p->name_width)
		p->name_width = max_name_len(p->session);
	fprintf(fp, "%*s: ", p->name_width, ev->evsel->name);
	if (smp->raw && ev->evsel->tp) {
		struct tep_record rec;

		memset(&rec, 0, sizeof(rec));
		rec.cpu = smp->cpu;
		rec.size = (int)smp->raw_size;
		rec.data = (void *)smp->raw;
		trace_seq_reset(p->seq);
		tep_print_event(ev->evsel->tp->tep, p->seq, &rec, "%s", TEP_PRINT_INFO);
		fwrite(p->seq->buffer, 1, p->seq->len, fp);
	}
	fputc('\n', fp);
	return ferror(fp) ? -1 : 0;
}

static void header_string(FILE *out, const char *label, const char *v)
{
	if (v)
		fprintf(out, "# %s : %s\n", label, v);
}

/* perf's print_cmdline: every argument followed by a space, ' escaped. */
static void header_cmdline(FILE *out, const struct pd_header_info *h)
{
	fprintf(out, "# cmdline : ");
	for (uint32_t i = 0; i < h->nr_cmdline; i++) {
		for (const char *c = h->cmdline[i]; *c; c++) {
			if (*c == '\'')
				fputc('\\', out);
			fputc(*c, out);
		}
		fputc(' ', out);
	}
	fputc('\n', out);
}

void report_print_header(FILE *out, struct pd_session *s, const char *path)
{
	const struct pd_header_info *h = pd_session_info(s);
	uint64_t doff, dsize, foff;
	struct stat st;

	pd_session_layout(s, &doff, &dsize, &foff);
	fprintf(out, "# ========\n");
	if (!pd_session_is_pipe(s) && path && stat(path, &st) == 0)
		fprintf(out, "# captured on    : %s", ctime(&st.st_mtime));
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %" PRIu64 "\n", doff);
	fprintf(out, "# data size      : %" PRIu64 "\n", dsize);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", foff);
	header_string(out, "hostname", h->hostname);
	header_string(out, "os release", h->osrelease);
	header_string(out, "perf version", h->version);
	header_string(out, "arch", h->arch);
	if (h->has_nrcpus) {
		fprintf(out, "# nrcpus online : %u\n", h->nr_cpus_online);
		fprintf(out, "# nrcpus avail : %u\n", h->nr_cpus_avail);
	}
	header_string(out, "cpudesc", h->cpudesc);
	header_string(out, "cpuid", h->cpuid);
	if (h->has_total_mem)
		fprintf(out, "# total memory : %" PRIu64 " kB\n", h->total_mem_kb);
	if (h->cmdline)
		header_cmdline(out, h);
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		fprintf(out, "# event : name = %s, type = %u, config = 0x%" PRIx64
			", sample_type = 0x%" PRIx64 ", ids = %zu\n", e->name, e->type,
			e->config, e->sample_type, e->nr_ids);
	}
	fprintf(out, "# ========\n#\n");
}
