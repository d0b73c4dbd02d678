/* fuzz_tracing_data.c - libFuzzer target: a HEADER_TRACING_DATA payload
 * through td_parse (and so libtraceevent's format, printk and cmdline
 * parsers), then every parsed event through the field layout and the fast
 * print compiler, with an all-zero record. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "fuzz.h"
#include "tracepoint/tracing_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_result res;
	struct tb_err err = { 0 };
	unsigned char *copy = malloc(size ? size : 1), zero[64] = { 0 };
	struct tep_event **evs;

	/* an exact-size copy: a read past @size is an ASan report */
	memcpy(copy, data, size);
	if (td_parse(copy, size, 0, &res, &err)) {
		free(copy);
		return 0;
	}
	if (res.parsed_size > size)
		abort();
	/* tep_list_events() memcpys from a NULL array when there are no events */
	evs = tep_get_events_count(res.tep) ? tep_list_events(res.tep, TEP_EVENT_SORT_ID) : NULL;
	for (int i = 0; evs && evs[i]; i++)
		fz_fields(evs[i], zero, sizeof(zero), 256, 0);
	td_result_free(&res);
	free(copy);
	return 0;
}
