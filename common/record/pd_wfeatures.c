/* pd_wfeatures.c - the feature payloads of a recording, encoded as perf 6.1
 * encodes them (perf-data-format.md section 5.1). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "perfdata/pd_format.h"
#include "record/pd_wfeatures.h"

int pdw_features_add(struct pdw_features *f, int bit, unsigned char *data, size_t len)
{
	if (!data)
		return TB_ERR_NOMEM;
	size_t at = f->nr;

	if (f->nr == PDW_MAX_FEATURES) {
		free(data);
		return TB_ERR_NOMEM;
	}
	/* in bit order, where the writer wants them */
	while (at > 0 && f->f[at - 1].bit > bit)
		at--;
	memmove(&f->f[at + 1], &f->f[at], (f->nr - at) * sizeof(f->f[0]));
	memmove(&f->owned[at + 1], &f->owned[at], (f->nr - at) * sizeof(f->owned[0]));
	f->owned[at] = data;
	f->f[at].bit = bit;
	f->f[at].data = data;
	f->f[at].len = len;
	f->nr++;
	return 0;
}

int pdw_features_add_string(struct pdw_features *f, int bit, const char *s)
{
	unsigned char *b = malloc(pd_header_string_size(s));

	return b ? pdw_features_add(f, bit, b, pd_header_string(b, s)) : TB_ERR_NOMEM;
}

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

void pdw_features_sample_time(struct pdw_features *f, uint64_t first, uint64_t last)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == PD_FEAT_SAMPLE_TIME) {
			memcpy(f->owned[i], &first, 8);
			memcpy(f->owned[i] + 8, &last, 8);
		}
}

int pdw_features_replace(struct pdw_features *f, int bit, unsigned char *data, size_t len)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == bit) {
			free(f->owned[i]);
			f->owned[i] = data;
			f->f[i].data = data;
			f->f[i].len = len;
			return 0;
		}
	return pdw_features_add(f, bit, data, len);
}

void pdw_features_remove(struct pdw_features *f, int bit)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == bit) {
			free(f->owned[i]);
			memmove(&f->f[i], &f->f[i + 1], (f->nr - i - 1) * sizeof(f->f[0]));
			memmove(&f->owned[i], &f->owned[i + 1], (f->nr - i - 1) * sizeof(f->owned[0]));
			f->nr--;
			return;
		}
}

void pdw_features_free(struct pdw_features *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->owned[i]);
	memset(f, 0, sizeof(*f));
}
