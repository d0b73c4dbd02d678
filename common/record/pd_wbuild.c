/* pd_wbuild.c - the feature list trace-record writes: every feature perf
 * record 6.1 writes for a recording, in bit order, from the machine
 * (pd_wsys.c), the command line, the attrs and the syscall map. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "perfdata/pd_format.h"
#include "record/pd_wbuild.h"
#include "record/pd_wsys.h"

static int add_cmdline(struct pdw_features *f, int argc, char **argv)
{
	size_t len = 4, n = 0;
	unsigned char *b;
	uint32_t nr = (uint32_t)argc;

	for (int i = 0; i < argc; i++)
		len += pd_header_string_size(argv[i]);
	b = malloc(len);
	if (!b)
		return TB_ERR_NOMEM;
	memcpy(b, &nr, 4);
	n = 4;
	for (int i = 0; i < argc; i++)
		n += pd_header_string(b + n, argv[i]);
	return pdw_features_add(f, PD_FEAT_CMDLINE, b, n);
}

static int add_event_desc(struct pdw_features *f, const struct pd_wattr *attrs, size_t nr)
{
	size_t len = 8, n;
	unsigned char *b;
	uint32_t v;

	for (size_t i = 0; i < nr; i++)
		len += 128 + 4 + pd_header_string_size(attrs[i].name) + attrs[i].nr_ids * 8;
	b = malloc(len);
	if (!b)
		return TB_ERR_NOMEM;
	v = (uint32_t)nr;
	memcpy(b, &v, 4);
	v = 128;
	memcpy(b + 4, &v, 4);
	n = 8;
	for (size_t i = 0; i < nr; i++) {
		memcpy(b + n, attrs[i].attr, 128);
		n += 128;
		v = (uint32_t)attrs[i].nr_ids;
		memcpy(b + n, &v, 4);
		n += 4;
		n += pd_header_string(b + n, attrs[i].name);
		memcpy(b + n, attrs[i].ids, attrs[i].nr_ids * 8);
		n += attrs[i].nr_ids * 8;
	}
	return pdw_features_add(f, PD_FEAT_EVENT_DESC, b, n);
}

int pdw_features_build(struct pdw_features *f, unsigned char *td, size_t td_len,
		       const char *version, int argc, char **argv,
		       const struct pd_wattr *attrs, size_t nr_attrs,
		       const struct syscall_map *scmap)
{
	struct utsname u;
	uint32_t cpus[2];
	unsigned char *b;
	int r;

	memset(f, 0, sizeof(*f));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	/* in bit order: the writer writes them in this order */
	/* no tracepoints, no tracing data (as perf) */
	if ((td && (r = pdw_features_add(f, PD_FEAT_TRACING_DATA, td, td_len))) ||
	    (r = pdw_sys_features(f, PD_FEAT_BUILD_ID, PD_FEAT_BUILD_ID)) ||
	    (r = pdw_features_add_string(f, PD_FEAT_HOSTNAME, u.nodename)) ||
	    (r = pdw_features_add_string(f, PD_FEAT_OSRELEASE, u.release)) ||
	    (r = pdw_features_add_string(f, PD_FEAT_VERSION, version)) ||
	    (r = pdw_features_add_string(f, PD_FEAT_ARCH, u.machine)))
		return r;
	cpus[0] = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	cpus[1] = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	b = malloc(8);
	if (b)
		memcpy(b, cpus, 8);
	if ((r = pdw_features_add(f, PD_FEAT_NRCPUS, b, 8)) ||
	    (r = pdw_sys_features(f, PD_FEAT_CPUDESC, PD_FEAT_TOTAL_MEM)) ||
	    (r = add_cmdline(f, argc, argv)) || (r = add_event_desc(f, attrs, nr_attrs)) ||
	    (r = pdw_sys_features(f, PD_FEAT_CPU_TOPOLOGY, PD_FEAT_SAMPLE_TIME - 1)))
		return r;
	b = calloc(1, 16);        /* first and last sample time: pdw_features_sample_time() */
	if ((r = pdw_features_add(f, PD_FEAT_SAMPLE_TIME, b, 16)) ||
	    (r = pdw_sys_features(f, PD_FEAT_SAMPLE_TIME + 1, PD_FEAT_LAST_PERF - 1)))
		return r;
	if (scmap) {
		size_t len;

		if ((r = scmap_encode(scmap, &b, &len)) ||
		    (r = pdw_features_add(f, PD_FEAT_SYSCALL_MAP, b, len)))
			return r;
	}
	return 0;
}
