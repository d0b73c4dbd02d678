/* report_per_event.c - --per-event-dump (perf script 6.1's
 * perf_script__fopen_per_event_dump): the samples of each attr go to
 * INPUT.EVENT.dump, other records to stdout, and at the end one line per
 * file: "[ perf script: Wrote N MB FILE (M samples) ]". */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "perfdata/pd_evsel.h"
#include "report/report_per_event.h"
#include "report/report_print.h"
#include "xfuncs.h"

int report_per_event_open(struct report_per_event *pe, struct report_print *pr,
			  struct pd_session *s, const char *input)
{
	pe->pr = pr;
	pe->session = s;
	pe->nr = pd_session_nr_evsels(s);
	pe->files = calloc(pe->nr ? pe->nr : 1, sizeof(*pe->files));
	pe->names = calloc(pe->nr ? pe->nr : 1, sizeof(*pe->names));
	pe->samples = calloc(pe->nr ? pe->nr : 1, sizeof(*pe->samples));
	if (!pe->files || !pe->names || !pe->samples) {
		error_msg("out of memory");
		return -1;
	}
	for (size_t i = 0; i < pe->nr; i++) {
		const char *ev = pd_session_evsel(s, i)->name;
		int fd;

		/* the name comes from the recording: a file name, not a path */
		if (strchr(ev, '/') || !strcmp(ev, "..")) {
			error_msg("--per-event-dump: event '%s' cannot name a file", ev);
			return -1;
		}
		pe->names[i] = xasprintf("%s.%s.dump", input, ev);
		fd = open(pe->names[i], O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 || !(pe->files[i] = fdopen(fd, "w"))) {
			perror_msg("%s", pe->names[i]);
			if (fd >= 0)
				close(fd);
			return -1;
		}
	}
	return 0;
}

int report_per_event_sample(void *ctx, const struct pd_event *ev)
{
	struct report_per_event *pe = ctx;
	size_t i = (size_t)(ev->evsel - pd_session_evsel(pe->session, 0));
	FILE *out = pe->pr->out;
	int r;

	if (i >= pe->nr)
		return report_print_sample(pe->pr, ev);
	report_print_flush(pe->pr);      /* what went before it, to stdout */
	pe->pr->out = pe->files[i];
	r = report_print_sample(pe->pr, ev);
	report_print_flush(pe->pr);
	pe->pr->out = out;
	pe->samples[i]++;
	return r;
}

int report_per_event_close(struct report_per_event *pe)
{
	int bad = 0;

	for (size_t i = 0; i < pe->nr; i++) {
		struct stat st;
		long size;

		if (!pe->files || !pe->files[i])
			continue;
		/* perf fstats the file before it closes it: what stdio still
		 * holds (less than a block) is not counted */
		size = ftell(pe->files[i]);
		if (!fstat(fileno(pe->files[i]), &st) && st.st_blksize > 0)
			size -= size % st.st_blksize;
		if (fclose(pe->files[i])) {
			perror_msg("%s", pe->names[i]);
			bad = 1;
		} else {
			printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			       size > 0 ? (double)size / 1024.0 / 1024.0 : 0.0, pe->names[i],
			       pe->samples[i]);
		}
	}
	for (size_t i = 0; pe->names && i < pe->nr; i++)
		free(pe->names[i]);
	free(pe->files);
	free(pe->names);
	free(pe->samples);
	memset(pe, 0, sizeof(*pe));
	return bad ? -1 : 0;
}
