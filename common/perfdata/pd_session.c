/* pd_session.c - a recording's state: attrs and their ids, tracing data, features,
 * and what readers ask of it. Opening: pd_open.c; records: pd_records.c. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "perfdata/pd_evname.h"
#include "perfdata/pd_session_int.h"
#include "symbols/symbols.h"
#include "tracepoint/tp_decoder.h"


/* ---- id -> evsel map (open addressing) ---- */

static int idmap_put(struct pd_session *s, uint64_t id, uint32_t idx)
{
	size_t i;

	if ((s->idmap_used + 1) * 2 > s->idmap_slots) {
		size_t n = s->idmap_slots ? s->idmap_slots * 2 : 64;
		struct pd_idslot *old = s->idmap, *nw;
		size_t old_n = s->idmap_slots;

		/* calloc checks n * size; doubling past half of SIZE_MAX would wrap */
		if (n < old_n || !(nw = calloc(n, sizeof(*nw))))
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

/* Check that the attr just added agrees with the first on where the id
 * sits (perf's "non matching sample_type" / "non matching sample_id_all"
 * rules); the ones before it were checked as they came. */
static int check_attrs(struct pd_session *s, uint64_t off, struct tb_err *err)
{
	struct pd_evsel *first = &s->evsels[0];

	s->sample_id_all = !!(first->flags & PD_ATTR_FLAG_SAMPLE_ID_ALL);
	s->id_pos = pd_id_pos(first->sample_type);
	s->is_pos = pd_is_pos(first->sample_type);
	for (size_t i = s->nr_evsels > 1 ? s->nr_evsels - 1 : 1; i < s->nr_evsels; i++) {
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
	if (s->nr_evsels == s->evsels_cap) {
		size_t cap = s->evsels_cap ? s->evsels_cap * 2 : 8;

		n = cap < SIZE_MAX / sizeof(*n) ? realloc(s->evsels, cap * sizeof(*n)) : NULL;
		if (!n)
			return tb_err_set(err, TB_ERR_NOMEM, off, "out of memory for %zu attrs",
					  s->nr_evsels + 1);
		s->evsels = n;
		s->evsels_cap = cap;
		s->names_gen++;
	}
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
	s->names_gen++;
	for (size_t i = 0; i < nr_ids; i++)
		if (idmap_put(s, e->ids[i], (uint32_t)(s->nr_evsels - 1)))
			return TB_ERR_NOMEM;
	*attr_len = size;
	return check_attrs(s, off, err);
}

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
	pd_session_resolve_names_from(s, 0);
}

void pd_session_resolve_names_from(struct pd_session *s, size_t first)
{
	for (size_t i = first; i < s->nr_evsels; i++) {
		struct pd_evsel *e = &s->evsels[i];
		const char *name = NULL;
		char buf[512];

		/* libtraceevent 1.7.1 bsearches a NULL array when it has no events */
		if (e->type == PD_TYPE_TRACEPOINT && s->td.tep && !e->tp &&
		    tep_get_events_count(s->td.tep) > 0) {
			e->tp = tep_find_event(s->td.tep, (int)e->config);
			/* fields cut short at a line libtraceevent could not
			 * read: perf 6.1 crashes on its samples (script, evlist) */
			e->bad_format = e->tp && td_fields_cut(&s->td, e->tp->id);
		}
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
		s->names_gen++;
	}
}

/* Tracepoint attrs need the tracing data and their format in it (perf:
 * "incompatible file format", "cannot find event format for N"). */
int pd_session_check_formats(struct pd_session *s, uint64_t off, struct tb_err *err)
{
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct pd_evsel *e = &s->evsels[i];

		if (e->bad_format)
			return tb_err_set(err, TB_ERR_TRACEDATA, e->offset + PD_ATTR_OFF_CONFIG,
					  "%s: its format in the tracing data does not parse (a "
					  "field line libtraceevent cannot read)", e->name);
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

int pd_session_check_decodable(struct pd_session *s, uint64_t off, struct tb_err *err)
{
	return pd_session_check_formats(s, off, err);
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
const char *pd_session_feat_label(int feat, char *buf, size_t n)
{
	if (feat >= 0 && feat < PD_FEAT_LAST_PERF)
		return feat_names[feat];
	if (feat == PD_FEAT_SYSCALL_MAP)
		return "syscall_map";
	snprintf(buf, n, "feature %d", feat);
	return buf;
}

/* Drop feature @feat, damaged as @why says. */
void pd_session_lose_feature(struct pd_session *s, int feat, const struct tb_err *why)
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
		pd_session_lose_feature(s, feat, &why);
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
		name = pd_session_feat_label(feat, buf, sizeof(buf));
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
	if (PD_ERR(s))
		damage = *PD_ERR(s);
	r2 = pd_order_flush_all(&s->order);
	if (r2)
		return r2;
	if (PD_ERR(s))
		*s->err = damage;
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
	pd_session_unwind_free(s);
	sym_machine_free(s->sym);
	free(s->buildid_sec);
	free(s->swapbuf);
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

struct sym_machine *pd_session_symbols(const struct pd_session *s)
{
	return s->sym;
}


int pd_session_for_each_decoder(struct pd_session *s,
				 int (*fn)(void *ctx, const struct tp_decoder *d), void *ctx)
{
	size_t n = pd_session_nr_evsels(s);

	for (size_t i = 0; i < n; i++) {
		const struct tp_decoder *d = pd_session_evsel(s, i)->dec;
		int r, dup = 0;

		for (size_t j = 0; d && j < i && !dup; j++)
			dup |= pd_session_evsel(s, j)->dec == d;
		if (!d || dup)
			continue;
		if ((r = fn(ctx, d)))
			return r;
	}
	return 0;
}

void pd_session_set_unordered(struct pd_session *s)
{
	s->unordered = 1;
}
