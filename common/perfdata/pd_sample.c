/* pd_sample.c - decoding PERF_RECORD_SAMPLE bodies and sample_id trailers.
 * Field order: perf_event_open(2) and perf-data-format.md section 4. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stddef.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"

void pd_sample_init(struct pd_sample *s)
{
	/* stores the compiler lays out (a memset call cost more, every sample) */
	*s = (struct pd_sample){ .pid = -1, .tid = -1, .cpu = -1 };
}

void pd_sample_attr_of(struct pd_sample_attr *a, const unsigned char *attr)
{
	a->sample_type = pd_u64(attr + PD_ATTR_OFF_SAMPLE_TYPE);
	a->read_format = pd_u64(attr + PD_ATTR_OFF_READ_FORMAT);
	a->branch_sample_type = pd_u64(attr + PD_ATTR_OFF_BRANCH_TYPE);
	a->regs_user = pd_u64(attr + PD_ATTR_OFF_REGS_USER);
	a->regs_intr = pd_u64(attr + PD_ATTR_OFF_REGS_INTR);
	a->sample_period = pd_u64(attr + PD_ATTR_OFF_PERIOD);
}

/* Where decoding stopped: the field and its offset in the record. */
struct where {
	size_t off;
	const char *field;
	int code;                  /* TB_ERR_TRUNCATED or TB_ERR_FORMAT */
};

/* A cursor over the record: every take is checked against its size. */
struct cur {
	const unsigned char *rec;
	size_t size, o;
	struct where *w;
};

/* take @n bytes for @field; NULL (and *w set) when they do not fit */
static const unsigned char *take(struct cur *c, uint64_t n, const char *field)
{
	const unsigned char *p = c->rec + c->o;

	if (c->size < c->o || n > c->size - c->o) {
		c->w->off = c->o;
		c->w->field = field;
		c->w->code = TB_ERR_TRUNCATED;
		return NULL;
	}
	c->o += (size_t)n;
	return p;
}

/* a u64 field into *v */
static int u64_of(struct cur *c, uint64_t *v, const char *field)
{
	const unsigned char *p = take(c, 8, field);

	if (!p)
		return -1;
	*v = pd_u64(p);
	return 0;
}

/* @n items of @item bytes, @n from the record: no overflow in n * item */
static const unsigned char *array_of(struct cur *c, uint64_t n, size_t item, const char *field)
{
	if (n > (c->size - c->o) / item) {
		c->w->off = c->o;
		c->w->field = field;
		c->w->code = TB_ERR_TRUNCATED;
		return NULL;
	}
	return take(c, n * item, field);
}

/* The rarer u64 fields, in body order: bit, where in the sample, name. */
struct fixed {
	uint64_t bit;
	size_t off;
	const char *name;
};

#define U64F(b, f) { PD_S_##b, offsetof(struct pd_sample, f), #b }
static const struct fixed mid_fields[] = { U64F(DATA_SRC, data_src), U64F(TRANSACTION, transaction) };
static const struct fixed last_fields[] = {
	U64F(PHYS_ADDR, phys_addr), U64F(CGROUP, cgroup), U64F(DATA_PAGE_SIZE, data_page_size),
	U64F(CODE_PAGE_SIZE, code_page_size),
};
#undef U64F

/* The fields of table @f (@n entries, all of one mask) that @st has: the
 * rare ones; the fields every sample has are read by head_of. */
static int fixed_of(struct cur *c, uint64_t st, const struct fixed *f, size_t n,
		    struct pd_sample *s)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		if (!(st & f[i].bit))
			continue;
		if (u64_of(c, &v, f[i].name))
			return -1;
		memcpy((char *)s + f[i].off, &v, 8);
	}
	return 0;
}
#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

#define PD_S_HEAD (PD_S_IDENTIFIER | PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID | \
		   PD_S_STREAM_ID | PD_S_CPU | PD_S_PERIOD)

/* u64s of @st's bits in @mask: counted in a few operations (no branch a
 * bit, nor libgcc's popcount call: the build assumes no POPCNT) */
static size_t words(uint64_t st, uint64_t mask)
{
	uint64_t x = st & mask;

	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (size_t)((x * 0x0101010101010101ull) >> 56);
}

/* The fixed u64 fields of @st at @p into @s, unchecked: where they end */
static const unsigned char *head_fields(uint64_t st, const unsigned char *p, struct pd_sample *s)
{
	if (st & PD_S_IDENTIFIER)
		s->id = pd_u64(p), p += 8;
	if (st & PD_S_IP)
		s->ip = pd_u64(p), p += 8;
	if (st & PD_S_TID)
		s->pid = (int32_t)pd_u32(p), s->tid = (int32_t)pd_u32(p + 4), p += 8;
	if (st & PD_S_TIME)
		s->time = pd_u64(p), p += 8;
	if (st & PD_S_ADDR)
		s->addr = pd_u64(p), p += 8;
	if (st & PD_S_ID)
		s->id = pd_u64(p), p += 8;
	if (st & PD_S_STREAM_ID)
		s->stream_id = pd_u64(p), p += 8;
	if (st & PD_S_CPU)
		s->cpu = (int32_t)pd_u32(p), p += 8;
	if (st & PD_S_PERIOD)
		s->period = pd_u64(p), p += 8;
	return p;
}

/* The fields before READ, which nearly every sample has: straight-line,
 * since they run for every sample twice (queue and delivery). All are 8
 * bytes: one check covers them, unless they run past the record (then
 * each is checked, to name the one cut). */
static int head_of(struct cur *c, uint64_t st, struct pd_sample *s)
{
	const unsigned char *p;
	size_t n = words(st, PD_S_HEAD);

	if (c->o <= c->size && n * 8 <= c->size - c->o) {
		p = head_fields(st, c->rec + c->o, s);
		c->o = (size_t)(p - c->rec);
		return 0;
	}

	if ((st & PD_S_IDENTIFIER) && u64_of(c, &s->id, "IDENTIFIER"))
		return -1;
	if ((st & PD_S_IP) && u64_of(c, &s->ip, "IP"))
		return -1;
	if (st & PD_S_TID) {
		if (!(p = take(c, 8, "TID")))
			return -1;
		s->pid = (int32_t)pd_u32(p);
		s->tid = (int32_t)pd_u32(p + 4);
	}
	if ((st & PD_S_TIME) && u64_of(c, &s->time, "TIME"))
		return -1;
	if ((st & PD_S_ADDR) && u64_of(c, &s->addr, "ADDR"))
		return -1;
	if ((st & PD_S_ID) && u64_of(c, &s->id, "ID"))
		return -1;
	if ((st & PD_S_STREAM_ID) && u64_of(c, &s->stream_id, "STREAM_ID"))
		return -1;
	if (st & PD_S_CPU) {
		if (!(p = take(c, 8, "CPU")))
			return -1;
		s->cpu = (int32_t)pd_u32(p);
	}
	if ((st & PD_S_PERIOD) && u64_of(c, &s->period, "PERIOD"))
		return -1;
	return 0;
}

/* REGS_USER / REGS_INTR: abi, then popcount(mask) u64s unless abi is 0 */
static int regs_of(struct cur *c, uint64_t mask, uint64_t *abi, uint64_t *outmask,
		   const unsigned char **regs, const char *abi_name, const char *regs_name)
{
	if (u64_of(c, abi, abi_name))
		return -1;
	if (!*abi)
		return 0;
	*outmask = mask;
	*regs = array_of(c, (uint64_t)__builtin_popcountll(mask), 8, regs_name);
	return *regs ? 0 : -1;
}

static int read_of(struct cur *c, uint64_t fmt, struct pd_sample *s)
{
	const unsigned char *p;
	uint64_t first;

	if (u64_of(c, &first, fmt & PD_FMT_GROUP ? "READ nr" : "READ value"))
		return -1;
	if ((fmt & PD_FMT_TOTAL_TIME_ENABLED) &&
	    u64_of(c, &s->time_enabled, "READ time_enabled"))
		return -1;
	if ((fmt & PD_FMT_TOTAL_TIME_RUNNING) &&
	    u64_of(c, &s->time_running, "READ time_running"))
		return -1;
	if (!(fmt & PD_FMT_GROUP)) {
		s->read_nr = 1;
		s->read_value = first;
		if ((fmt & PD_FMT_ID) && u64_of(c, &s->read_id, "READ id"))
			return -1;
		if ((fmt & PD_FMT_LOST) && u64_of(c, &s->read_lost, "READ lost"))
			return -1;
		return 0;
	}
	/* the kernel's group layout: {value, [id], [lost]} per member */
	s->read_value_size = 8 + ((fmt & PD_FMT_ID) ? 8 : 0) + ((fmt & PD_FMT_LOST) ? 8 : 0);
	p = array_of(c, first, s->read_value_size, "READ values");
	if (!p)
		return -1;
	s->read_nr = first;
	s->read_values = p;
	return 0;
}

static int stack_of(struct cur *c, struct pd_sample *s)
{
	size_t at;

	s->user_stack_off = c->o;
	if (u64_of(c, &s->user_stack_size, "STACK_USER size"))
		return -1;
	if (!s->user_stack_size)
		return 0;
	if (!(s->user_stack = take(c, s->user_stack_size, "STACK_USER data")))
		return -1;
	at = c->o;
	if (u64_of(c, &s->user_stack_dyn_size, "STACK_USER dyn_size"))
		return -1;
	if (s->user_stack_dyn_size > s->user_stack_size) {
		c->w->off = at;
		c->w->field = "STACK_USER dyn_size (larger than the dump)";
		c->w->code = TB_ERR_FORMAT;
		return -1;
	}
	return 0;
}

/* The u64 fields after STACK_USER, in body order (WEIGHT and REGS_INTR apart). */
static int tail_of(struct cur *c, const struct pd_sample_attr *a, struct pd_sample *s)
{
	uint64_t st = a->sample_type;

	if (st & (PD_S_WEIGHT | PD_S_WEIGHT_STRUCT)) {
		if (u64_of(c, &s->weight_full, "WEIGHT"))
			return -1;
		/* perf's x86 reading: WEIGHT wins when both bits are set */
		if (st & PD_S_WEIGHT) {
			s->weight = s->weight_full;
		} else {
			s->weight = s->weight_full & 0xffffffffu;
			s->ins_lat = (uint16_t)(s->weight_full >> 32);
			/* p_stage_cyc stays 0: only perf's powerpc reading fills it */
		}
	}
	if ((st & (PD_S_DATA_SRC | PD_S_TRANSACTION)) &&
	    fixed_of(c, st, mid_fields, NFIELDS(mid_fields), s))
		return -1;
	if ((st & PD_S_REGS_INTR) &&
	    regs_of(c, a->regs_intr, &s->intr_regs_abi, &s->intr_regs_mask, &s->intr_regs,
		    "REGS_INTR abi", "REGS_INTR regs"))
		return -1;
	if ((st & (PD_S_PHYS_ADDR | PD_S_CGROUP | PD_S_DATA_PAGE_SIZE | PD_S_CODE_PAGE_SIZE)) &&
	    fixed_of(c, st, last_fields, NFIELDS(last_fields), s))
		return -1;
	if (st & PD_S_AUX) {
		if (u64_of(c, &s->aux_size, "AUX size"))
			return -1;
		if (!(s->aux = take(c, s->aux_size, "AUX data")))
			return -1;
	}
	return 0;
}

static int parse(const struct pd_sample_attr *a, const unsigned char *rec, size_t size,
		 struct pd_sample *s, struct where *w)
{
	struct cur c = { .rec = rec, .size = size, .o = PD_EVENT_HEADER, .w = w };
	uint64_t st = a->sample_type, v;
	const unsigned char *p;

	pd_sample_init(s);
	s->period = a->sample_period;      /* perf 6.1: evsel__parse_sample */
	if (head_of(&c, st, s))
		return -1;
	if ((st & PD_S_READ) && read_of(&c, a->read_format, s))
		return -1;
	if (st & PD_S_CALLCHAIN) {
		if (u64_of(&c, &v, "CALLCHAIN nr") ||
		    !(s->callchain = array_of(&c, v, 8, "CALLCHAIN ips")))
			return -1;
		s->nr_callchain = v;
	}
	if (st & PD_S_RAW) {
		if (!(p = take(&c, 4, "RAW size")))
			return -1;
		s->raw_size = pd_u32(p);
		if (!(s->raw = take(&c, s->raw_size, "RAW data")))
			return -1;
	}
	/* tracepoint and software samples end here */
	if (!(st & ~(PD_S_IDENTIFIER | PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID |
		     PD_S_STREAM_ID | PD_S_CPU | PD_S_PERIOD | PD_S_READ | PD_S_CALLCHAIN |
		     PD_S_RAW)))
		return 0;
	if (st & PD_S_BRANCH_STACK) {
		if (u64_of(&c, &v, "BRANCH_STACK nr"))
			return -1;
		if ((a->branch_sample_type & PD_BRANCH_HW_INDEX) &&
		    u64_of(&c, &s->branch_hw_idx, "BRANCH_STACK hw_idx"))
			return -1;
		s->has_branch_hw_idx = !!(a->branch_sample_type & PD_BRANCH_HW_INDEX);
		if (!(s->branches = array_of(&c, v, 24, "BRANCH_STACK entries")))
			return -1;
		s->nr_branches = v;
	}
	if ((st & PD_S_REGS_USER) &&
	    regs_of(&c, a->regs_user, &s->user_regs_abi, &s->user_regs_mask, &s->user_regs,
		    "REGS_USER abi", "REGS_USER regs"))
		return -1;
	if ((st & PD_S_STACK_USER) && stack_of(&c, s))
		return -1;
	return tail_of(&c, a, s);
}

int pd_sample_decode(const struct pd_sample_attr *a, const unsigned char *rec, size_t size,
		     uint64_t off, struct pd_sample *s, struct tb_err *err)
{
	struct where w = { 0, NULL, 0 };

	if (!parse(a, rec, size, s, &w))
		return 0;
	if (w.code == TB_ERR_FORMAT)
		return tb_err_set(err, w.code, off + w.off, "sample of %zu bytes: bad %s "
				  "(sample_type 0x%llx)", size, w.field,
				  (unsigned long long)a->sample_type);
	return tb_err_set(err, w.code, off + w.off, "sample of %zu bytes ends inside its %s "
			  "(at byte %zu; sample_type 0x%llx)", size, w.field, w.off,
			  (unsigned long long)a->sample_type);
}

int pd_sample_parse(uint64_t st, const unsigned char *rec, size_t size, struct pd_sample *s)
{
	struct pd_sample_attr a = { .sample_type = st };
	struct where w = { 0, NULL, 0 };

	return parse(&a, rec, size, s, &w) ? -(int)w.off : 0;
}

void pd_sample_decode_taken(const struct pd_sample_attr *a, const unsigned char *rec,
			    struct pd_sample *s)
{
	uint64_t st = a->sample_type;
	const unsigned char *p = rec + PD_EVENT_HEADER;

	pd_sample_init(s);
	s->period = a->sample_period;      /* perf 6.1: evsel__parse_sample */
	p = head_fields(st, p, s);
	if (st & PD_S_CALLCHAIN) {
		s->nr_callchain = pd_u64(p);
		s->callchain = p + 8;
		p += 8 + 8 * s->nr_callchain;
	}
	if (st & PD_S_RAW) {
		s->raw_size = pd_u32(p);
		s->raw = p + 4;
	}
}

void pd_sample_tid(const struct pd_sample_attr *a, const unsigned char *rec, int32_t *pid,
		   int32_t *tid)
{
	const unsigned char *p = rec + PD_EVENT_HEADER +
				 8 * words(a->sample_type, PD_S_IDENTIFIER | PD_S_IP);

	*pid = *tid = -1;
	if (a->sample_type & PD_S_TID) {
		*pid = (int32_t)pd_u32(p);
		*tid = (int32_t)pd_u32(p + 4);
	}
}

int pd_sample_when(const struct pd_sample_attr *a, const unsigned char *rec, size_t size,
		   uint64_t *time, int32_t *cpu, const unsigned char **raw, uint32_t *raw_size)
{
	uint64_t st = a->sample_type, nr;
	size_t o = PD_EVENT_HEADER + 8 * words(st, PD_S_HEAD);

	if ((st & ~(PD_S_HEAD | PD_S_CALLCHAIN | PD_S_RAW)) || size < o)
		return -1;
	*time = 0;
	*cpu = -1;
	*raw = NULL;
	*raw_size = 0;
	if (st & PD_S_TIME)
		*time = pd_u64(rec + PD_EVENT_HEADER +
			       8 * words(st, PD_S_IDENTIFIER | PD_S_IP | PD_S_TID));
	if (st & PD_S_CPU)
		*cpu = (int32_t)pd_u32(rec + o - 8 * words(st, PD_S_CPU | PD_S_PERIOD));
	if (st & PD_S_CALLCHAIN) {
		if (size - o < 8)
			return -1;
		nr = pd_u64(rec + o);
		o += 8;
		if (nr > (size - o) / 8)
			return -1;
		o += (size_t)nr * 8;
	}
	if (st & PD_S_RAW) {
		if (size - o < 4)
			return -1;
		nr = pd_u32(rec + o);
		o += 4;
		if (nr > size - o)
			return -1;
		*raw = rec + o;
		*raw_size = (uint32_t)nr;
	}
	return 0;
}

size_t pd_trailer_size(uint64_t st)
{
	size_t n = 0;

	n += (st & PD_S_TID) ? 8 : 0;
	n += (st & PD_S_TIME) ? 8 : 0;
	n += (st & PD_S_ID) ? 8 : 0;
	n += (st & PD_S_STREAM_ID) ? 8 : 0;
	n += (st & PD_S_CPU) ? 8 : 0;
	n += (st & PD_S_IDENTIFIER) ? 8 : 0;
	return n;
}

int pd_trailer_parse(uint64_t st, const unsigned char *rec, size_t size,
		     size_t body_min, struct pd_sample *s)
{
	size_t need = pd_trailer_size(st);
	size_t o;

	pd_sample_init(s);
	if (size < body_min || size - body_min < need)
		return -1;
	o = size - need;
	if (st & PD_S_TID) {
		s->pid = (int32_t)pd_u32(rec + o);
		s->tid = (int32_t)pd_u32(rec + o + 4);
		o += 8;
	}
	if (st & PD_S_TIME)       { s->time = pd_u64(rec + o); o += 8; }
	if (st & PD_S_ID)         { s->id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_STREAM_ID)  { s->stream_id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_CPU)        { s->cpu = (int32_t)pd_u32(rec + o); o += 8; }
	if (st & PD_S_IDENTIFIER) { s->id = pd_u64(rec + o); o += 8; }
	return 0;
}

int pd_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PD_S_IDENTIFIER)
		return 0;
	if (!(st & PD_S_ID))
		return -1;
	idx += (st & PD_S_IP) ? 1 : 0;
	idx += (st & PD_S_TID) ? 1 : 0;
	idx += (st & PD_S_TIME) ? 1 : 0;
	idx += (st & PD_S_ADDR) ? 1 : 0;
	return idx;
}

int pd_is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PD_S_IDENTIFIER)
		return 1;
	if (!(st & PD_S_ID))
		return -1;
	idx += (st & PD_S_CPU) ? 1 : 0;
	idx += (st & PD_S_STREAM_ID) ? 1 : 0;
	return idx;
}
