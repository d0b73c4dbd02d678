/* fuzz.h - what the libFuzzer targets share: an input as a file descriptor,
 * a consumer that does to every sample what trace-report and the engines do,
 * and a silent libtraceevent log hook. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct pd_consumer;
struct tep_event;

/** fz_memfd - a regular-file descriptor holding @data (the caller closes it) */
int fz_memfd(const uint8_t *data, size_t size);

/** fz_pipe - the read end of a pipe holding @data, write end closed; -1 if too big */
int fz_pipe(const uint8_t *data, size_t size);

/** fz_consumer - a consumer that converts every field of every sample */
struct pd_consumer *fz_consumer(void);

/**
 * fz_fields - what the engines and the printer do with one event's raw data:
 * every field through tp_read_int/tp_read_bytes/tp_printable, the fast
 * renderer into an exactly-sized buffer of @cap bytes, and, when @checked
 * (the reader has validated @raw against the format), tep_print_event.
 * Aborts when tpf_render's text differs from libtraceevent's.
 */
void fz_fields(struct tep_event *ev, const unsigned char *raw, size_t size, size_t cap,
	       int checked);

#endif
