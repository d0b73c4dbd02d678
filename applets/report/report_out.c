/* report_out.c - the output buffer's formatted write (the rest of the
 * buffer's helpers are inline in report_out.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "report/report_hold.h"
#include "report/report_out.h"

/* @n bytes to @out. A full buffer goes to the file itself: through
 * fwrite, stdio would first copy every byte of the output into its own
 * buffer. Less (the printer is flushed before every -D dump, side-band
 * line or per-event file switch) goes through stdio, which gathers it:
 * one write(2) per piece would be one per sample there. What stdio holds
 * is flushed before a direct write, so the order is kept. A direct write
 * is retried where it stops short; where it fails, stdio gets the rest,
 * which it buffers or fails on in turn and keeps the error for ferror():
 * the failure is seen by the next flush at the latest. */
void ro_write(FILE *out, const char *s, size_t n)
{
	int fd = n >= RO_SIZE / 4 ? fileno_unlocked(out) : -1;

	if (fd >= 0 && !fflush_unlocked(out))
		while (n) {
			ssize_t w = write(fd, s, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			s += w;
			n -= (size_t)w;
		}
	if (n)
		fwrite_unlocked(s, 1, n, out);
}

void ro_out(struct report_print *p, const char *s, size_t n)
{
	if (p->hold)
		rp_hold_put(p->hold, s, n);
	else
		ro_write(p->out, s, n);
}

void ro_printf(struct report_print *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	ro_room(p, 512);
	va_start(ap, fmt);
	n = vsnprintf(p->pos, (size_t)(p->end - p->pos), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < (size_t)(p->end - p->pos)) {
		p->pos += n;
		return;
	}
	ro_flush(p);
	if (p->hold) {          /* the hold takes it whole, or loses it */
		char *big = malloc((size_t)n + 1);

		if (!big) {
			p->hold->failed = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		rp_hold_put(p->hold, big, (size_t)n);
		free(big);
		return;
	}
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
}
