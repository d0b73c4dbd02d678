/* pd_session.c - open a perf.data recording: file header, attrs, ids, features.
 * Layout: perf-data-format.md sections 2, 3, 5 and 6. Records: pd_records.c. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "perfdata/pd_evname.h"
#include "perfdata/pd_session_int.h"
#include "symbols/symbols.h"
#include "tracepoint/tp_decoder.h"

#define MAX_ATTRS      4096
#define MAX_IDS        (1u << 20)      /* ids per attr */
#define MAX_TRACEDATA  (256u << 20)
#define MAX_FEATURE    (64u << 20)
#define INPUT_BUFFER   (256u << 10)    /* holds any record (64 KiB at most) */

/* ---- id -> evsel map (open addressing) ---- */

static int idmap_put(struct pd_session *s, uint64_t id, uint32_t idx)
{
	size_t i;

	if ((s->idmap_used + 1) * 2 > s->idmap_slots) {
		size_t n = s->idmap_slots ? s->idmap_slots * 2 : 64;
		struct pd_idslot *old = s->idmap, *nw = calloc(n, sizeof(*nw));
		size_t old_n = s->idmap_slots;

		if (!nw)
			return TB_ERR_NOMEM;
		s->idmap = nw;
		s->idmap_slots = n;
		s->idmap_used = 0;
		for (i = 0; i < old_n; i++)
			if (old[i].used) {
				idmap_put(s, old[i].id, old[i].idx);
				pd_session_id2slot(s, old[i].id)->period = old[i].period;
			}
		free(old);
	}
	i = (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 20) & (s->idmap_slots - 1);
	while (s->idmap[i].used && s->idmap[i].id != id)
		i = (i + 1) & (s->idmap_slots - 1);
	if (!s->idmap[i].used)
		s->idmap_used++;
	s->idmap[i].used = 1;
	s->idmap[i].id = id;
	s->idmap[i].idx = idx;
	return 0;
}

int pd_session_id_known(struct pd_session *s, uint64_t id)
{
	size_t i;

	if (!s->idmap_slots)
		return 0;
	i = (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 20) & (s->idmap_slots - 1);
	while (s->idmap[i].used) {
		if (s->idmap[i].id == id)
			return 1;
		i = (i + 1) & (s->idmap_slots - 1);
	}
	return 0;
}

struct pd_idslot *pd_session_id2slot(struct pd_session *s, uint64_t id)
{
	size_t i;

	if (!s->idmap_slots)
		return NULL;
	i = (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 20) & (s->idmap_slots - 1);
	while (s->idmap[i].used) {
		if (s->idmap[i].id == id)
			return &s->idmap[i];
		i = (i + 1) & (s->idmap_slots - 1);
	}
	return NULL;
}

struct pd_evsel *pd_session_id2evsel(struct pd_session *s, uint64_t id)
{
	struct pd_idslot *slot;

	if (s->nr_evsels == 1 || id == 0)
		return s->nr_evsels ? &s->evsels[0] : NULL;
	slot = pd_session_id2slot(s, id);
	return slot ? &s->evsels[slot->idx] : NULL;
}

/* ---- attrs ---- */

/* Check that all attrs agree on where the id sits (perf's "non matching
 * sample_type" / "non matching sample_id_all" rules). */
static int check_attrs(struct pd_session *s, uint64_t off, struct tb_err *err)
{
	struct pd_evsel *first = &s->evsels[0];

	s->sample_id_all = !!(first->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL);
	s->id_pos = pd_id_pos(first->sample_type);
	s->is_pos = pd_is_pos(first->sample_type);
	for (size_t i = 1; i < s->nr_evsels; i++) {
		struct pd_evsel *e = &s->evsels[i];

		if (!!(e->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL) != s->sample_id_all)
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "attr %zu: non matching sample_id_all", i);
		/* a pipe of counting attrs (perf stat record -o -) carries no
		 * ids: perf takes it, and so do we until a sample needs one */
		if (s->pipe && !s->sample_id_all && s->id_pos < 0 && s->is_pos < 0 &&
		    pd_id_pos(e->sample_type) < 0 && pd_is_pos(e->sample_type) < 0)
			continue;
		if (pd_id_pos(e->sample_type) != s->id_pos ||
		    pd_is_pos(e->sample_type) != s->is_pos || s->id_pos < 0)
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "attr %zu: non matching sample_type 0x%llx (every attr of a "
					  "multi-event file needs ID or IDENTIFIER at the same place)",
					  i, (unsigned long long)e->sample_type);
	}
	return 0;
}

/* Decode one attr from @p (@avail bytes); its size field decides the length. */
int pd_session_add_attr(struct pd_session *s, const unsigned char *p, size_t avail,
			uint64_t off, const uint64_t *ids, size_t nr_ids, size_t *attr_len,
			struct tb_err *err)
{
	struct pd_evsel *e, *n;
	uint32_t size;

	if (avail < PD_ATTR_SIZE_VER0)
		return tb_err_set(err, TB_ERR_TRUNCATED, off,
				  "attr needs %d bytes, %zu left", PD_ATTR_SIZE_VER0, avail);
	size = pd_u32(p + PD_ATTR_OFF_SIZE);
	if (size == 0)
		size = PD_ATTR_SIZE_VER0;
	if (size < PD_ATTR_SIZE_VER0 || size > PD_ATTR_SIZE_LIMIT || size % 8)
		return tb_err_set(err, TB_ERR_UNSUPPORTED, off + PD_ATTR_OFF_SIZE,
				  "attr size %u is not a perf ABI size (64..%d, multiple of 8)",
				  size, PD_ATTR_SIZE_LIMIT);
	if (size > avail)
		return tb_err_set(err, TB_ERR_TRUNCATED, off,
				  "attr of %u bytes, %zu left", size, avail);
	if (s->nr_evsels >= MAX_ATTRS)
		return tb_err_set(err, TB_ERR_FORMAT, off, "more than %d attrs", MAX_ATTRS);
	n = realloc(s->evsels, (s->nr_evsels + 1) * sizeof(*n));
	if (!n)
		return TB_ERR_NOMEM;
	s->evsels = n;
	e = &s->evsels[s->nr_evsels];
	memset(e, 0, sizeof(*e));
	/* a newer ABI's attr: its first 128 bytes are the attr perf 6.1 knows */
	if (size > PD_ATTR_SIZE_MAX) {
		s->stats.nr_big_attrs++;
		if (size > s->stats.big_attr_size)
			s->stats.big_attr_size = size;
		for (uint32_t i = PD_ATTR_SIZE_MAX; i < size; i++)
			s->stats.big_attr_nonzero |= p[i] != 0;
	}
	memcpy(e->raw, p, size < PD_ATTR_SIZE_MAX ? size : PD_ATTR_SIZE_MAX);
	e->raw_size = size < PD_ATTR_SIZE_MAX ? size : PD_ATTR_SIZE_MAX;
	e->offset = off;
	e->type = pd_u32(p + PD_ATTR_OFF_TYPE);
	e->config = pd_u64(p + PD_ATTR_OFF_CONFIG);
	e->sample_type = pd_u64(p + PD_ATTR_OFF_SAMPLE_TYPE);
	e->flags = pd_u64(p + PD_ATTR_OFF_FLAGS);
	pd_sample_attr_of(&e->sattr, e->raw);
	if (e->sample_type & ~PD_S_KNOWN)
		return tb_err_set(err, TB_ERR_UNSUPPORTED, off + PD_ATTR_OFF_SAMPLE_TYPE,
				  "attr %zu sample_type 0x%llx has bits 0x%llx newer than perf "
				  "6.1's: the fields after them cannot be found", s->nr_evsels,
				  (unsigned long long)e->sample_type,
				  (unsigned long long)(e->sample_type & ~PD_S_KNOWN));
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(*e->ids));
		if (!e->ids)
			return TB_ERR_NOMEM;
		memcpy(e->ids, ids, nr_ids * sizeof(*e->ids));
		e->nr_ids = nr_ids;
	}
	/* named from the start: consumers may see it even when a later check
	 * refuses the file (the queued samples are still delivered) */
	if (e->type == PD_TYPE_TRACEPOINT) {
		e->name = strdup("unknown");
	} else {
		char name[128];

		pd_evname(e->raw, name, sizeof(name));
		e->name = strdup(name);
	}
	if (!e->name)
		return TB_ERR_NOMEM;
	s->nr_evsels++;
	for (size_t i = 0; i < nr_ids; i++)
		if (idmap_put(s, e->ids[i], (uint32_t)(s->nr_evsels - 1)))
			return TB_ERR_NOMEM;
	*attr_len = size;
	return check_attrs(s, off, err);
}

static int read_attrs(struct pd_session *s, const unsigned char *hdr, struct tb_err *err)
{
	uint64_t attr_size = pd_u64(hdr + 16);
	uint64_t aoff = pd_u64(hdr + 24), asize = pd_u64(hdr + 32);
	unsigned char *buf;
	uint64_t pos = 0;
	int r = 0;

	if (attr_size == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 16, "attr_size is 0");
	if (aoff > s->file_size || asize > s->file_size - aoff)
		return tb_err_set(err, TB_ERR_FORMAT, 24,
				  "attrs section [0x%llx, +0x%llx) lies outside the %llu-byte file",
				  (unsigned long long)aoff, (unsigned long long)asize,
				  (unsigned long long)s->file_size);
	if (asize / attr_size > MAX_ATTRS)
		return tb_err_set(err, TB_ERR_FORMAT, 32, "%llu attrs is absurd",
				  (unsigned long long)(asize / attr_size));
	if (asize == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 32, "the file has no attrs");
	buf = malloc(asize);
	if (!buf)
		return TB_ERR_NOMEM;
	if ((r = pd_pread_all(s->fd, buf, asize, aoff, err)))
		goto out;
	for (uint64_t k = 0; k < asize / attr_size; k++) {
		uint64_t ioff, isize, *ids = NULL;
		size_t alen;

		if (asize - pos < PD_ATTR_SIZE_VER0) {
			r = tb_err_set(err, TB_ERR_TRUNCATED, aoff + pos,
				       "attr %llu runs past the attrs section",
				       (unsigned long long)k);
			goto out;
		}
		/* the ids section follows attr.size bytes, whatever attr_size says */
		{
			uint32_t sz = pd_u32(buf + pos + PD_ATTR_OFF_SIZE);

			if (sz == 0)
				sz = PD_ATTR_SIZE_VER0;
			if (sz <= PD_ATTR_SIZE_LIMIT && (asize - pos < sz || asize - pos - sz < 16)) {
				r = tb_err_set(err, TB_ERR_TRUNCATED, aoff + pos,
					       "attr %llu and its ids section run past the attrs "
					       "section", (unsigned long long)k);
				goto out;
			}
			if (sz <= PD_ATTR_SIZE_LIMIT) {
				ioff = pd_u64(buf + pos + sz);
				isize = pd_u64(buf + pos + sz + 8);
			} else {
				ioff = isize = 0;
			}
		}
		if (ioff > s->file_size || isize > s->file_size - ioff || isize % 8 ||
		    isize / 8 > MAX_IDS) {
			r = tb_err_set(err, TB_ERR_FORMAT, aoff + pos,
				       "attr %llu ids section [0x%llx, +0x%llx) is not inside the file",
				       (unsigned long long)k, (unsigned long long)ioff,
				       (unsigned long long)isize);
			goto out;
		}
		if (isize) {
			ids = malloc(isize);
			if (!ids) {
				r = TB_ERR_NOMEM;
				goto out;
			}
			if ((r = pd_pread_all(s->fd, ids, isize, ioff, err))) {
				free(ids);
				goto out;
			}
		}
		r = pd_session_add_attr(s, buf + pos, asize - pos, aoff + pos, ids, isize / 8,
					&alen, err);
		free(ids);
		if (r)
			goto out;
		pos += alen + 16;
	}
out:
	free(buf);
	return r;
}

/* ---- tracing data and names ---- */

int pd_session_set_tracing_data(struct pd_session *s, const unsigned char *buf, size_t size,
				uint64_t base, struct tb_err *err)
{
	int r;

	if (s->td.tep)
		return tb_err_set(err, TB_ERR_FORMAT, base, "a second tracing data section");
	r = td_parse(buf, size, base, &s->td, err);
	if (r)
		return r;
	pd_session_resolve_names(s);
	return 0;
}

/* Whether an attr before @i has the decoder of attr @i. */
static int shares_decoder(const struct pd_session *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (s->evsels[j].dec == s->evsels[i].dec)
			return 1;
	return 0;
}

/* The decoder of @e's format: an earlier attr's of the same format, else
 * a new one (NULL when out of memory: check_raw says so). */
static void attach_decoder(struct pd_session *s, struct pd_evsel *e)
{
	for (size_t j = 0; j < s->nr_evsels; j++)
		if (&s->evsels[j] != e && s->evsels[j].tp == e->tp && s->evsels[j].dec) {
			e->dec = s->evsels[j].dec;
			return;
		}
	tp_decoder_new(&e->dec, e->tp);
}

/* Give every evsel its tracepoint format, its decoder and the name perf
 * would print. */
/* perf's evsel__name for a hardware or software attr that no EVENT_DESC
 * names (a pipe from perf stat record): its generic event name. */
void pd_session_resolve_names(struct pd_session *s)
{
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct pd_evsel *e = &s->evsels[i];
		const char *name = NULL;
		char buf[512];

		/* libtraceevent 1.7.1 bsearches a NULL array when it has no events */
		if (e->type == PD_TYPE_TRACEPOINT && s->td.tep && !e->tp &&
		    tep_get_events_count(s->td.tep) > 0)
			e->tp = tep_find_event(s->td.tep, (int)e->config);
		if (e->tp && !e->dec)
			attach_decoder(s, e);
		/* perf matches EVENT_DESC entries to attrs by position */
		if (i < s->info.nr_descs)
			name = s->info.descs[i].name;
		if (!name && e->tp) {
			snprintf(buf, sizeof(buf), "%s:%s", e->tp->system, e->tp->name);
			name = buf;
		}
		if (!name && e->name)
			continue;
		if (!name && e->type != PD_TYPE_TRACEPOINT) {
			pd_evname(e->raw, buf, sizeof(buf));
			name = buf;
		}
		if (!name)
			name = "unknown";
		free(e->name);
		e->name = strdup(name);
	}
}

/* Tracepoint attrs need the tracing data and their format in it (perf:
 * "incompatible file format", "cannot find event format for N"). */
int pd_session_check_formats(struct pd_session *s, uint64_t off, struct tb_err *err)
{
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct pd_evsel *e = &s->evsels[i];

		if (e->type != PD_TYPE_TRACEPOINT || e->tp)
			continue;
		if (!s->td.tep)
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "no tracing data: the tracepoint events (%s) cannot be "
					  "decoded", e->name);
		return tb_err_set(err, TB_ERR_FORMAT, e->offset + PD_ATTR_OFF_CONFIG,
				  "attr %zu: the tracing data has no format for tracepoint id "
				  "%llu", i, (unsigned long long)e->config);
	}
	return 0;
}

/* ---- what damage costs ----
 *
 * Fatal, and nothing is delivered: a header, attr or id section that is cut
 * or absurd; a data section that runs past the file (its tracing data,
 * written after it, is gone too); a tracing data section that is cut,
 * points outside the file or does not parse, since no tracepoint can be
 * decoded without it.
 * Not fatal: any other feature section that is cut, points outside the
 * file or does not parse is dropped alone; the header lines it would give
 * are missing, every event is there (perf drops it without a word; the
 * applet names it once, pd_session_lost_features).
 * In the records: the first record that is cut or does not parse ends the
 * reading. Every record read before it is delivered, in time order, as a
 * clean end would deliver it; then the damage is the error
 * (pd_session_drain). perf stops there too, but without delivering what
 * its queue held, and exits 0 on a cut pipe stream.
 */

static const char *const feat_names[PD_FEAT_LAST_PERF] = {
	"reserved", "tracing_data", "build_id", "hostname", "osrelease", "version", "arch",
	"nrcpus", "cpudesc", "cpuid", "total_mem", "cmdline", "event_desc", "cpu_topology",
	"numa_topology", "branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat",
	"cache", "sample_time", "mem_topology", "clockid", "dir_format", "bpf_prog_info",
	"bpf_btf", "compressed", "cpu_pmu_caps", "clock_data", "hybrid_topology", "pmu_caps",
};

/* perf's name of feature bit @feat, for messages. */
static const char *feat_label(int feat, char *buf, size_t n)
{
	if (feat >= 0 && feat < PD_FEAT_LAST_PERF)
		return feat_names[feat];
	if (feat == PD_FEAT_SYSCALL_MAP)
		return "syscall_map";
	snprintf(buf, n, "feature %d", feat);
	return buf;
}

/* Drop feature @feat, damaged as @why says. */
static void lose_feature(struct pd_session *s, int feat, const struct tb_err *why)
{
	uint64_t bit = 1ULL << (feat % 64);

	if (s->lost[feat / 64] & bit)
		return;
	s->lost[feat / 64] |= bit;
	if (s->nr_lost++ == 0)
		s->lost_why = *why;
	pd_feature_forget(feat, &s->info);
}

/* One feature payload other than the tracing data, file or pipe mode: when
 * it does not parse, it is lost, not the recording. */
int pd_session_feature(struct pd_session *s, int feat, const unsigned char *buf, size_t size,
		       uint64_t off, struct tb_err *err)
{
	struct tb_err why = { 0 };
	int r = pd_feature_parse(feat, buf, size, off, &s->info, &why);

	if (feat == PD_FEAT_BUILD_ID && size && !s->buildid_sec) {
		/* kept for the symbols machine, which may come later */
		s->buildid_sec = malloc(size);
		if (!s->buildid_sec)
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET,
					  "out of memory for the build-id section");
		memcpy(s->buildid_sec, buf, size);
		s->buildid_len = size;
	}

	if (r == TB_ERR_NOMEM)
		return tb_err_set(err, r, TB_NO_OFFSET, "out of memory for a feature section");
	if (r)
		lose_feature(s, feat, &why);
	return 0;
}

unsigned pd_session_lost_features(const struct pd_session *s, struct tb_err *err)
{
	char names[160] = "", buf[24];
	size_t len = 0;

	if (!err || !s->nr_lost)
		return s->nr_lost;
	for (int feat = 0; feat < PD_FEAT_BITS; feat++) {
		const char *name;

		if (!(s->lost[feat / 64] >> (feat % 64) & 1))
			continue;
		name = feat_label(feat, buf, sizeof(buf));
		if (len + strlen(name) + 3 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", name);
	}
	tb_err_set(err, s->lost_why.code ? s->lost_why.code : TB_ERR_FORMAT,
		   s->lost_why.has_offset ? s->lost_why.offset : TB_NO_OFFSET,
		   "feature section%s %s lost, the events are all there: %s",
		   s->nr_lost > 1 ? "s" : "", names, s->lost_why.msg);
	return s->nr_lost;
}

static int is_damage(int code)
{
	return code == TB_ERR_IO || code == TB_ERR_TRUNCATED || code == TB_ERR_FORMAT ||
	       code == TB_ERR_UNSUPPORTED || code == TB_ERR_TRACEDATA;
}

/* The end of the records, clean (@r == 0) or not: deliver what the queue
 * holds. After damage in the input the records read before it go out too;
 * after a failed delivery (a consumer that stopped, a sample whose fields
 * failed their checks at its turn) nothing more does. Returns the error:
 * a delivery that fails now comes first in the output, so it wins. */
int pd_session_drain(struct pd_session *s, int r)
{
	struct tb_err damage = { 0 };
	int r2;

	if (r == 0)
		return pd_order_flush_all(&s->order);
	if (!is_damage(r) || s->order.failed)
		return r;
	if (s->err)
		damage = *s->err;
	r2 = pd_order_flush_all(&s->order);
	if (r2)
		return r2;
	if (s->err)
		*s->err = damage;
	return r;
}

/* ---- file mode ---- */

/* Feature @feat's index entry at @at is damaged as @fmt says: the tracing
 * data is fatal, any other feature is lost alone. */
static int damaged_entry(struct pd_session *s, int feat, uint64_t at, struct tb_err *err,
			 const char *fmt, unsigned long long a, unsigned long long b)
{
	struct tb_err why = { 0 };
	char msg[200], buf[24];

	snprintf(msg, sizeof(msg), fmt, a, b, (unsigned long long)s->file_size);
	if (feat == PD_FEAT_TRACING_DATA)
		return tb_err_set(err, TB_ERR_TRUNCATED, at, "feature section tracing_data %s: "
				  "the tracepoint events cannot be decoded", msg);
	tb_err_set(&why, TB_ERR_TRUNCATED, at, "%s %s", feat_label(feat, buf, sizeof(buf)), msg);
	lose_feature(s, feat, &why);
	return 0;
}

static int read_features(struct pd_session *s, struct tb_err *err)
{
	uint64_t idx_off = s->data_offset + s->data_size;
	unsigned nr = 0, k = 0, whole;
	unsigned char *idx = NULL, *payload = NULL;
	int r = 0;

	for (int w = 0; w < 4; w++)
		nr += (unsigned)__builtin_popcountll(s->features[w]);
	if (nr == 0)
		return 0;
	/* a cut index keeps its whole entries */
	whole = idx_off >= s->file_size ? 0 :
		(unsigned)((s->file_size - idx_off) / 16 < nr ? (s->file_size - idx_off) / 16 : nr);
	idx = malloc((size_t)whole * 16 + 1);
	if (!idx)
		return TB_ERR_NOMEM;
	if ((r = pd_pread_all(s->fd, idx, (size_t)whole * 16, idx_off, err)))
		goto out;
	for (int feat = 0; feat < PD_FEAT_BITS && !r; feat++) {
		uint64_t off, size, at = idx_off + (uint64_t)k * 16;
		int want;

		if (!(s->features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (k++ >= whole) {
			r = damaged_entry(s, feat, at, err, "has no index entry: the index at "
					  "0x%llx of %llu entries runs past the end of the %llu-byte "
					  "file", idx_off, nr);
			continue;
		}
		off = pd_u64(idx + (k - 1) * 16);
		size = pd_u64(idx + (k - 1) * 16 + 8);
		want = feat == PD_FEAT_TRACING_DATA || feat == PD_FEAT_BUILD_ID ||
		       pd_feature_name(feat) != NULL;
		if (!pd_feature_known(feat))      /* perf skips them too, silently */
			s->stats.skipped_features[feat / 64] |= 1ULL << (feat % 64);
		if (want && size > (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE) &&
		    off <= s->file_size && size <= s->file_size - off) {
			r = tb_err_set(err, TB_ERR_FORMAT, idx_off + (k - 1) * 16,
				       "feature %d section of %llu bytes is over the %u MiB this "
				       "reader accepts", feat, (unsigned long long)size,
				       (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE) >> 20);
			goto out;
		}
		/* every entry must lie in the file, read or not */
		if (off > s->file_size || size > s->file_size - off) {
			r = damaged_entry(s, feat, at, err, "section [0x%llx, +0x%llx) is not "
					  "inside the %llu-byte file", off, size);
			continue;
		}
		if (want && size > (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE)) {
			r = damaged_entry(s, feat, at, err, "section [0x%llx, +0x%llx) is too "
					  "big to be real (file of %llu bytes)", off, size);
			continue;
		}
		if (!want)
			continue;
		payload = malloc(size ? size : 1);
		if (!payload) {
			r = TB_ERR_NOMEM;
			goto out;
		}
		if ((r = pd_pread_all(s->fd, payload, size, off, err)))
			goto out;
		if (feat == PD_FEAT_TRACING_DATA)
			r = pd_session_set_tracing_data(s, payload, size, off, err);
		else
			r = pd_session_feature(s, feat, payload, size, off, err);
		free(payload);
		payload = NULL;
	}
out:
	free(payload);
	free(idx);
	return r;
}

/* tracebox's syscall map rides in an EVENT_UPDATE among the first records
 * of the data (pd_writer.h); read it now, so that --header and the engines
 * have it before the first sample. Stops at the first sample. */
static int read_leading_updates(struct pd_session *s, struct tb_err *err)
{
	uint64_t off = s->data_offset, end = s->data_offset + s->data_size;
	unsigned char hdr[24], *buf;
	int r;

	for (int k = 0; k < 64 && end - off >= 8; k++) {
		uint16_t size;

		if ((r = pd_pread_all(s->fd, hdr, 8, off, err)))
			return r;
		size = pd_u16(hdr + 6);
		if (size < 8 || size > end - off || pd_u32(hdr) == PD_REC_SAMPLE)
			return 0;         /* the record reader says what is wrong */
		if (pd_u32(hdr) == PD_REC_EVENT_UPDATE && size >= 24 && !s->info.has_syscalls) {
			if ((r = pd_pread_all(s->fd, hdr, 24, off, err)))
				return r;
			if (pd_u64(hdr + 8) == PD_EVENT_UPDATE_SYSCALL_MAP) {
				buf = malloc(size);
				if (!buf)
					return TB_ERR_NOMEM;
				r = pd_pread_all(s->fd, buf, size, off, err);
				if (!r)
					r = pd_feature_parse(PD_FEAT_SYSCALL_MAP, buf + 24, size - 24U,
							     off + 24, &s->info, err);
				free(buf);
				return r;
			}
		}
		off += size;
	}
	return 0;
}

static int open_file_mode(struct pd_session *s, struct tb_err *err)
{
	unsigned char hdr[PD_FILE_HEADER_SIZE];
	uint64_t hsize;
	int r;

	memset(hdr, 0, sizeof(hdr));
	if ((r = pd_pread_all(s->fd, hdr, 16, 0, err)))
		return r;
	hsize = pd_u64(hdr + 8);
	if (hsize != PD_FILE_HEADER_SIZE && hsize != PD_FILE_HEADER_OLD)
		return tb_err_set(err, TB_ERR_FORMAT, 8,
				  "header size %llu is neither 104, 72 (file) nor 16 (pipe)",
				  (unsigned long long)hsize);
	if ((r = pd_pread_all(s->fd, hdr, hsize, 0, err)))
		return r;
	if (hsize == PD_FILE_HEADER_SIZE)
		for (int w = 0; w < 4; w++)
			s->features[w] = pd_u64(hdr + 72 + 8 * w);
	s->data_offset = pd_u64(hdr + 40);
	s->data_size = pd_u64(hdr + 48);
	if (s->data_offset > s->file_size || s->data_size > s->file_size - s->data_offset)
		return tb_err_set(err, TB_ERR_TRUNCATED, 40,
				  "data section [0x%llx, +0x%llx) runs past the end of the "
				  "%llu-byte file", (unsigned long long)s->data_offset,
				  (unsigned long long)s->data_size, (unsigned long long)s->file_size);
	if (s->data_size == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 48,
				  "data size is 0 (the recording was not finished)");
	if ((r = read_attrs(s, hdr, err)))
		return r;
	/* EVENT_DESC names need the attrs; tracing data needs nothing else. */
	if ((r = read_features(s, err)) || (r = read_leading_updates(s, err)))
		return r;
	pd_session_resolve_names(s);
	if ((r = pd_session_check_formats(s, 72, err)))
		return r;
	return pd_in_seek(&s->in, s->data_offset, s->data_offset + s->data_size, err);
}

/* ---- opening ---- */

int pd_session_open(struct pd_session **out, const char *path, int fd, struct tb_err *err)
{
	struct pd_session *s = calloc(1, sizeof(*s));
	const unsigned char *p;
	struct stat st;
	size_t avail;
	int r;

	*out = NULL;
	if (!s) {
		close(fd);
		return TB_ERR_NOMEM;
	}
	s->fd = fd;
	s->path = path;
	if ((r = pd_in_init(&s->in, fd, INPUT_BUFFER)) || (r = pd_threads_init(&s->threads)))
		goto fail;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		s->file_size = (uint64_t)st.st_size;
	else
		s->file_size = UINT64_MAX;
	p = pd_in_peek(&s->in, 16, &avail, err);
	if (!p) {
		r = err && err->code ? err->code :
			tb_err_set(err, TB_ERR_TRUNCATED, 0,
				   "%zu bytes: too short for a perf.data header", avail);
		goto fail;
	}
	if (pd_u64(p) == PD_MAGIC2_SWAPPED) {
		r = tb_err_set(err, TB_ERR_UNSUPPORTED, 0,
			       "the file is from a machine of the other byte order");
		goto fail;
	}
	if (pd_u64(p) != PD_MAGIC2) {
		r = tb_err_set(err, TB_ERR_FORMAT, 0,
			       "bad magic 0x%016llx, not a perf.data (PERFILE2) file",
			       (unsigned long long)pd_u64(p));
		goto fail;
	}
	if (pd_u64(p + 8) == PD_PIPE_HEADER_SIZE) {
		s->pipe = 1;
		pd_in_consume(&s->in, 16);
		r = pd_session_read_pipe_headers(s, err);
	} else if (s->file_size == UINT64_MAX) {
		r = tb_err_set(err, TB_ERR_UNSUPPORTED, 8,
			       "a file-mode header (size %llu) on a pipe: pipe input needs "
			       "'perf record -o -' data", (unsigned long long)pd_u64(p + 8));
	} else {
		r = open_file_mode(s, err);
	}
	if (r)
		goto fail;
	*out = s;
	return 0;
fail:
	pd_session_close(s);
	return r;
}

void pd_session_close(struct pd_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_evsels; i++) {
		free(s->evsels[i].ids);
		if (!shares_decoder(s, i))
			tp_decoder_free(s->evsels[i].dec);
		free(s->evsels[i].name);
	}
	free(s->evsels);
	free(s->idmap);
	td_result_free(&s->td);
	pd_header_info_free(&s->info);
	pd_threads_free(&s->threads);
	sym_machine_free(s->sym);
	free(s->buildid_sec);
	pd_stat_free(&s->stat);
	pd_in_free(&s->in);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* ---- accessors ---- */

int pd_session_is_pipe(const struct pd_session *s) { return s->pipe; }
size_t pd_session_nr_evsels(const struct pd_session *s) { return s->nr_evsels; }
const struct pd_header_info *pd_session_info(const struct pd_session *s) { return &s->info; }
struct tep_handle *pd_session_tep(const struct pd_session *s) { return s->td.tep; }
const struct pd_stats *pd_session_stats(const struct pd_session *s) { return &s->stats; }
const char *pd_session_comm(struct pd_session *s, int32_t pid, int32_t tid)
{
	return pd_threads_comm(&s->threads, pid, tid);
}

const struct pd_evsel *pd_session_evsel(const struct pd_session *s, size_t i)
{
	return i < s->nr_evsels ? &s->evsels[i] : NULL;
}

void pd_session_layout(const struct pd_session *s, uint64_t *data_off, uint64_t *data_size,
		       uint64_t *feat_off)
{
	*data_off = s->pipe ? 0 : s->data_offset;
	*data_size = s->pipe ? 0 : s->data_size;
	*feat_off = s->pipe ? 0 : s->data_offset + s->data_size;
}

int pd_session_has_feature(const struct pd_session *s, int feat)
{
	return feat >= 0 && feat < PD_FEAT_BITS &&
	       (s->features[feat / 64] >> (feat % 64)) & 1;
}

int pd_session_use_symbols(struct pd_session *s, const struct sym_opts *o)
{
	if (s->sym)
		return 0;
	s->sym = sym_machine_new(o);
	if (!s->sym)
		return TB_ERR_NOMEM;
	if (s->buildid_sec)
		return pd_session_buildids(s, s->buildid_sec, s->buildid_len);
	return 0;
}

struct sym_machine *pd_session_symbols(const struct pd_session *s)
{
	return s->sym;
}
