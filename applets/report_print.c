/* report_print.c - print events as `perf script` 6.1 prints tracepoint samples:
 * "%16s %5d [%03d] %12s: %*s: <print fmt output>" (builtin-script.c
 * perf_sample__fprintf_start and process_event). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "pd_session.h"
#include "report_print.h"
#include "tp_decoder.h"
#include "xfuncs.h"

int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs)
{
	const struct pd_evsel *first_tp = NULL;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->session = s;
	p->nsecs = nsecs;
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

static char *put_str(char *o, const char *s, size_t len)
{
	memcpy(o, s, len);
	return o + len;
}

/* "%*s" / "%-*s"-free helpers: right-align @s in @width. */
static char *put_right(char *o, const char *s, size_t len, size_t width)
{
	while (len < width--)
		*o++ = ' ';
	return put_str(o, s, len);
}

static char *put_udec(char *o, uint64_t v, size_t width, char pad)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n < width--)
		*o++ = pad;
	return put_str(o, tmp + sizeof(tmp) - n, n);
}

static char *put_sdec(char *o, int32_t v, size_t width, char pad)
{
	char tmp[24];
	size_t n = 0;
	int64_t x = v;
	uint64_t u = x < 0 ? (uint64_t)(-x) : (uint64_t)x;

	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (x < 0) {
		if (pad == '0') {      /* printf puts the sign before zero padding */
			*o++ = '-';
			width = width ? width - 1 : 0;
		} else {
			tmp[sizeof(tmp) - ++n] = '-';
		}
	}
	while (n < width--)
		*o++ = pad;
	return put_str(o, tmp + sizeof(tmp) - n, n);
}

#define LINE_PREFIX_MAX 4096

int report_print_sample(void *ctx, const struct pd_event *ev)
{
	struct report_print *p = ctx;
	const struct pd_sample *smp = ev->sample;
	FILE *fp = p->out;
	char line[LINE_PREFIX_MAX + 8192], *o = line;
	size_t clen = strlen(ev->comm), nlen = strlen(ev->evsel->name);

	if (clen > 512 || nlen > 1024) {
		error_msg("offset 0x%llx: %s '%.32s...' is %zu bytes, over the %d a line holds",
			  (unsigned long long)ev->file_offset, clen > 512 ? "comm" : "event name",
			  clen > 512 ? ev->comm : ev->evsel->name, clen > 512 ? clen : nlen,
			  clen > 512 ? 512 : 1024);
		return TB_ERR_STOP;
	}
	if (p->show_comm) {
		if (smp->nr_callchain && (ev->evsel->sample_type & PD_S_CALLCHAIN))
			o = put_str(o, ev->comm, clen);
		else
			o = put_right(o, ev->comm, clen, 16);
		*o++ = ' ';
	}
	if (p->show_tid) {
		o = put_sdec(o, smp->tid, 5, ' ');
		*o++ = ' ';
	}
	if (p->show_cpu) {
		*o++ = '[';
		o = put_sdec(o, smp->cpu, 3, '0');
		o = put_str(o, "] ", 2);
	}
	if (p->show_time) {
		uint64_t secs = smp->time / 1000000000ULL, ns = smp->time % 1000000000ULL;

		if (p->nsecs) {
			o = put_udec(o, secs, 5, ' ');
			*o++ = '.';
			o = put_udec(o, ns, 9, '0');
		} else {
			char t[40], *e = put_udec(t, secs, 0, ' ');

			*e++ = '.';
			e = put_udec(e, ns / 1000, 6, '0');
			o = put_right(o, t, (size_t)(e - t), 12);
		}
		o = put_str(o, ": ", 2);
	}
	if (!p->name_width)
		p->name_width = max_name_len(p->session);
	o = put_right(o, ev->evsel->name, nlen, (size_t)p->name_width);
	o = put_str(o, ": ", 2);
	if (smp->raw && ev->evsel->dec) {
		const char *text;
		long n = tp_render(ev->evsel->dec, smp->raw, smp->raw_size, smp->cpu, o,
				   sizeof(line) - 1 - (size_t)(o - line), &text);

		if (n < 0)
			return -1;
		if (text == o) {
			o += n;
		} else {
			fwrite(line, 1, (size_t)(o - line), fp);
			fwrite(text, 1, (size_t)n, fp);
			o = line;
		}
	}
	*o++ = '\n';
	fwrite(line, 1, (size_t)(o - line), fp);
	return ferror(fp) ? -1 : 0;
}
