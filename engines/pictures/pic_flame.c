/* pic_flame.c - the flame graph engine: every sample's stack folded as
 * perf's stackcollapse.py folds it (comm at the root, ';' in a symbol made
 * ':'), or, off-CPU, each sched_switch's stack charged with the
 * microseconds its task then stayed switched out; written as folded lines
 * or as the picture (flame_html.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "ec_sample.h"
#include "engine_core.h"
#include "perfdata/pd_evsel.h"
#include "pictures/flame_html.h"
#include "pictures/flame_tree.h"
#include "pictures/pictures.h"
#include "pictures/ptrmap.h"
#include "pictures/tidmap.h"

/* The most frames of one stack (the chain's 127 and their inlines) */
#define MAX_FRAMES 1024
/* The most frames a comm makes (a comm with ';' splits as its folded line does) */
#define MAX_COMM_PIECES 2
/* Each thread's last stack (in a direct-mapped table of LAST_SLOTS), to
 * walk only what differs from it: up to LAST_DEPTH frames */
#define LAST_SLOTS 256
#define LAST_DEPTH 128

/* A task switched out: the stack it blocked in, and when. */
struct away {
	uint32_t node;             /* 0: not away */
	uint64_t since;
};

/* A frame's name and kind by what decides them (report_print.c's frame
 * cache keys): a kernel address while the kernel's map stays, a user
 * address by its map's DSO, offset and start. FRAME_SLOTS, direct-mapped.
 * Kept beside the machine's own cache of resolved addresses: going
 * through that one (a sym_loc copy, the name map, the JIT test) costs
 * 5.6% more instructions on tests/bench/flamegraph's profile. */
#define FRAME_SLOTS 4096
struct frame_memo {
	uint64_t a, b, c;          /* kernel: ip, 0, 0; user: map_ip, dso, map start */
	uint32_t gen, name;
	uint16_t mode;
	uint8_t kind, used;
};

struct last_stack {
	int64_t tid;               /* -1: none */
	size_t n;
	uint32_t ids[LAST_DEPTH], nodes[LAST_DEPTH];
};

struct engine_run {
	const struct engine_start *st;
	const struct engine_picture *pic;
	struct sym_machine *syms;
	struct ft_tree *tree;
	struct tidmap away;        /* per tid: struct away */
	const struct tp_decoder *switch_dec;
	const struct tp_field *prev_pid, *next_pid;
	/* one stack, root first: name indices and kinds */
	uint32_t ids[MAX_FRAMES + MAX_COMM_PIECES];
	uint8_t kinds[MAX_FRAMES + MAX_COMM_PIECES];
	uint32_t nodes[MAX_FRAMES + MAX_COMM_PIECES];
	/* the name index of each symbol string the machine gave (its strings
	 * live as long as it does, so their addresses name them) */
	struct ptrmap names;
	struct last_stack *last;   /* LAST_SLOTS of them */
	struct frame_memo *memo;   /* FRAME_SLOTS of them */
};

int flame_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));

	*run = r;
	if (!r || !(r->tree = ft_new("all")) || !(r->last = calloc(LAST_SLOTS, sizeof(*r->last))) ||
	    !(r->memo = calloc(FRAME_SLOTS, sizeof(*r->memo))))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < LAST_SLOTS; i++)
		r->last[i].tid = -1;
	r->st = st;
	r->pic = st->picture;
	r->syms = pd_session_symbols(st->session);
	tidmap_init(&r->away, sizeof(struct away));
	return 0;
}

static int is_jit(const char *dso)
{
	const char *b = strrchr(dso, '/');

	b = b ? b + 1 : dso;
	return !strcmp(dso, "[JIT]") || !strncmp(b, "jitted-", 7) ||
	       (!strncmp(dso, "/tmp/perf-", 10) && strstr(dso, ".map"));
}

/* The name index of @l's frame as stackcollapse.py tidies it ("[unknown]"
 * for none, ';' as ':', "_[k]" after a kernel symbol under --kernel),
 * made once per symbol string. Returns it, or TB_ERR_NOMEM. */
static int64_t frame_name(struct engine_run *r, const struct sym_loc *l)
{
	static const char unknown[] = "[unknown]";
	const char *s = l->sym ? l->sym : unknown;
	uint32_t kernel = r->pic->annotate_kernel && !strcmp(l->dso, "[kernel.kallsyms]");
	char buf[FT_MAX_NAME + 8];
	uint32_t *id;
	int64_t name;
	size_t n;
	int fresh;

	if (!(id = ptrmap_slot(&r->names, s, kernel, &fresh)))
		return TB_ERR_NOMEM;
	if (!fresh)
		return *id;
	n = strnlen(s, FT_MAX_NAME);
	memcpy(buf, s, n);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == ';')
			buf[i] = ':';
	if (kernel) {
		memcpy(buf + n, "_[k]", 4);
		n += 4;
	}
	if ((name = ft_intern(r->tree, buf, n)) >= 0)
		*id = (uint32_t)name;
	return name;
}

/* The memo slot of a frame, with its key in @k; NULL when not to be kept
 * (no symbols, a user address in the kernel's half or in no map). */
static struct frame_memo *memo_slot(struct engine_run *r, const struct pd_event *ev,
				    uint16_t mode, uint64_t ip, struct frame_memo *k)
{
	const void *dso;
	uint64_t h;

	if (!r->syms)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->mode = mode;
	if (mode == EC_CPUMODE_KERNEL) {
		k->a = ip;
		k->gen = sym_machine_gen(r->syms, ev->sample->pid, mode);
	} else if (mode != EC_CPUMODE_USER || (int64_t)ip < 0 ||
		   !sym_machine_map_of(r->syms, ev->sample->pid, ip, &dso, &k->a, &k->c)) {
		return NULL;
	} else {
		k->b = (uint64_t)(uintptr_t)dso;
	}
	h = (k->a ^ k->b * 0xff51afd7ed558ccdULL ^ k->c * 0xc4ceb9fe1a85ec53ULL ^ mode) *
	    0x9e3779b97f4a7c15ULL;
	return &r->memo[h >> 52];      /* 12 bits: FRAME_SLOTS */
}

/* The name and kind of the frame at @ip (not unwound: no inline frames). */
static int resolved_frame(struct engine_run *r, const struct pd_event *ev, uint16_t mode,
			  uint64_t ip, uint32_t *name, uint8_t *kind)
{
	struct frame_memo k, *slot = memo_slot(r, ev, mode, ip, &k);
	struct sym_loc l;
	int64_t id;

	if (slot && slot->used && slot->a == k.a && slot->b == k.b && slot->c == k.c &&
	    slot->gen == k.gen && slot->mode == k.mode) {
		*name = slot->name;
		*kind = slot->kind;
		return 0;
	}
	if (ec_resolve(r->syms, ev, mode, ip, 0, &l) || (id = frame_name(r, &l)) < 0)
		return TB_ERR_NOMEM;
	*name = (uint32_t)id;
	*kind = l.is_kernel ? FT_KERNEL : is_jit(l.dso) ? FT_JIT : FT_USER;
	if (slot) {
		k.name = *name;
		k.kind = *kind;
		k.used = 1;
		*slot = k;
	}
	return 0;
}

/* The stack of @ev into ids/kinds from @at, root first: the count, or
 * TB_ERR_NOMEM. An unwound stack's frames come with their inline ones. */
static int frames(struct engine_run *r, const struct pd_event *ev, size_t at)
{
	uint32_t ids[MAX_FRAMES];
	uint8_t kinds[MAX_FRAMES];
	struct ec_chain c;
	struct sym_loc l;
	uint64_t ip;
	uint16_t mode;
	int k, n = 0;
	int64_t name;

	if (!ev->sample->nr_callchain)
		return 0;
	ec_chain_begin(&c, ev, ec_max_stack());
	for (; !c.unwound && n < MAX_FRAMES && ec_chain_next(&c, &ip, &mode); n++)
		if (resolved_frame(r, ev, mode, ip, &ids[n], &kinds[n]))
			return TB_ERR_NOMEM;
	while (c.unwound && n < MAX_FRAMES && (k = ec_chain_frame(&c, r->syms, ev, &ip, &l)) != 0) {
		if (k < 0 || (name = frame_name(r, &l)) < 0)
			return TB_ERR_NOMEM;
		ids[n] = (uint32_t)name;
		kinds[n++] = c.nr_inl && c.next_inl < c.nr_inl ? FT_INLINE :
			     l.is_kernel ? FT_KERNEL : is_jit(l.dso) ? FT_JIT : FT_USER;
	}
	for (int i = 0; i < n; i++) {
		r->ids[at + i] = ids[n - 1 - i];
		r->kinds[at + i] = kinds[n - 1 - i];
	}
	return n;
}

/* @sep then @v in decimal at @buf + @len (room for 13 bytes): the new length. */
static size_t append_id(char *buf, size_t len, char sep, int32_t v)
{
	char digits[11];
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	size_t n = 0;

	buf[len++] = sep;
	if (v < 0)
		buf[len++] = '-';
	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n)
		buf[len++] = digits[--n];
	return len;
}

/* The comm frame(s) of stackcollapse.py into ids/kinds: the comm, ' ' as
 * '_', with -PID and /TID as asked, split where the comm holds ';' (as
 * the folded line is, into at most MAX_COMM_PIECES). The count, or
 * TB_ERR_NOMEM. */
static int comm_frames(struct engine_run *r, const struct pd_event *ev)
{
	const char *comm = ev->comm ? ev->comm : ":-1";
	char buf[256], *p, *q;
	size_t len;
	int n = 0;
	int64_t id;

	if (r->pic->no_comm)
		return 0;
	len = strnlen(comm, sizeof(buf) - 27);
	for (size_t i = 0; i < len; i++)
		buf[i] = comm[i] == ' ' ? '_' : comm[i];
	if (r->pic->include_pid)
		len = append_id(buf, len, '-', ev->sample->pid);
	if (r->pic->include_tid)
		len = append_id(buf, len, r->pic->include_pid ? '/' : '-', ev->sample->tid);
	buf[len] = 0;
	for (p = buf;; p = q + 1) {
		q = n + 1 < MAX_COMM_PIECES ? strchrnul(p, ';') : buf + len;
		if ((id = ft_intern(r->tree, p, (size_t)(q - p))) < 0)
			return TB_ERR_NOMEM;
		r->ids[n] = (uint32_t)id;
		r->kinds[n++] = FT_COMM;
		if (!*q)
			break;
	}
	return n;
}

/* The node of @ev's stack (root first: comm, then the outermost caller),
 * walking only the part that differs from the thread's last stack. */
static int64_t stack_node(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	struct last_stack *last = &r->last[(uint32_t)ev->sample->tid % LAST_SLOTS];
	int nc = comm_frames(r, ev), nf = nc < 0 ? nc : frames(r, ev, (size_t)nc);
	size_t n, same = 0;
	int64_t node;

	if (nc < 0 || nf < 0)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	n = (size_t)(nc + nf);
	if (last->tid == ev->sample->tid)
		while (same < n && same < last->n && r->ids[same] == last->ids[same])
			same++;
	if (same)
		memcpy(r->nodes, last->nodes, same * sizeof(*r->nodes));
	node = same == n && n ? r->nodes[n - 1] :
	       ft_path_from(r->tree, same ? r->nodes[same - 1] : 0, r->ids + same, r->kinds + same,
			    n - same, r->nodes + same, err);
	if (node < 0)
		return node;
	last->tid = ev->sample->tid;
	last->n = n < LAST_DEPTH ? n : LAST_DEPTH;
	memcpy(last->ids, r->ids, last->n * sizeof(*r->ids));
	memcpy(last->nodes, r->nodes, last->n * sizeof(*r->nodes));
	return node;
}

/* The decoder of sched:sched_switch and its two pid fields, found once. */
static const struct tp_decoder *switch_decoder(struct engine_run *r, const struct pd_event *ev)
{
	const struct tp_decoder *d = ev->evsel->dec;

	if (!d || d == r->switch_dec)
		return d;
	if (strcmp(d->system, "sched") || strcmp(d->name, "sched_switch"))
		return NULL;
	r->prev_pid = tp_decoder_field(d, "prev_pid");
	r->next_pid = tp_decoder_field(d, "next_pid");
	if (!r->prev_pid || !r->next_pid)
		return NULL;
	r->switch_dec = d;
	return d;
}

/* Off-CPU: a sched_switch takes prev_pid away with this stack (not the
 * idle task, pid 0) and brings next_pid back, charging the time since it
 * went in microseconds (rounded) to the stack it left with. */
static int offcpu_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	uint64_t prev, next;
	struct away *a;
	int64_t node;

	if (!switch_decoder(r, ev) || r->switch_dec != ev->evsel->dec || !s->raw ||
	    tp_read_int(r->prev_pid, s->raw, s->raw_size, 0, &prev) ||
	    tp_read_int(r->next_pid, s->raw, s->raw_size, 0, &next))
		return 0;
	if ((uint32_t)next && (a = tidmap_get(&r->away, (uint32_t)next, 0)) && a->node) {
		if (s->time > a->since)
			ft_credit(r->tree, a->node, (s->time - a->since + 500) / 1000);
		a->node = 0;
	}
	if (!(uint32_t)prev || (r->pic->keep && !r->pic->keep(r->pic->keep_ctx, ev)))
		return 0;
	if ((node = stack_node(r, ev, err)) < 0)
		return (int)node;
	if (!(a = tidmap_get(&r->away, (uint32_t)prev, 1)))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	a->node = (uint32_t)node;
	a->since = s->time;
	return 0;
}

int flame_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	int64_t node;

	if (r->pic->offcpu)
		return offcpu_event(r, ev, err);
	if ((node = stack_node(r, ev, err)) < 0)
		return (int)node;
	ft_credit(r->tree, (uint32_t)node, 1);
	return 0;
}

int flame_stop(struct engine_run *r, struct tb_err *err)
{
	const struct engine_picture *pic = r->pic;
	FILE *f = NULL;
	char *tmp = NULL;
	int rc = 0;

	if (pic->collect && !*r->st->failed) {
		*pic->collect = r->tree;
		r->tree = NULL;
	} else if (!*r->st->failed && (rc = pic->before ? ft_diff(r->tree, pic->before) : 0)) {
		tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
	} else if (!*r->st->failed && (f = pic_open(pic->output, &tmp, err))) {
		rc = pic->folded ? ft_write_folded(r->tree, f) : flame_write_html(f, r->tree, pic);
		if (rc == TB_ERR_NOMEM)      /* else pic_close says what failed to write */
			tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
		if (pic_close(f, pic->output, tmp, rc == TB_ERR_NOMEM, err) && !rc)
			rc = TB_ERR_IO;
	} else if (!*r->st->failed) {
		rc = err->code;
	}
	ft_free(r->tree);
	tidmap_free(&r->away);
	ptrmap_free(&r->names);
	free(r->last);
	free(r->memo);
	free(r);
	return rc;
}
