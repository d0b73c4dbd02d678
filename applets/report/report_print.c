/* report_print.c - print samples as `perf script` 6.1 does: the fields of
 * report_fields.c, the stack under the line or the ip, symbol and DSO on it
 * (builtin-script.c perf_sample__fprintf_start and process_event,
 * util/evsel_fprintf.c sample__fprintf_sym). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_extra.h"
#include "report/report_head.h"
#include "report/report_hold.h"
#include "report/report_out.h"
#include "report/report_print.h"
#include "report/report_srccode.h"
#include "report/report_time.h"
#include "report/report_resolve.h"
#include "tracepoint/tp_decoder.h"
#include "symbols/symbols.h"
#include "util/hugemem.h"
#include "xfuncs.h"

#define PERF_CONTEXT_HV     ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL ((uint64_t)-128)
#define PERF_CONTEXT_USER   ((uint64_t)-512)
#define PERF_CONTEXT_MAX    ((uint64_t)-4095)
#define DWARF_STACK (PD_S_CALLCHAIN | PD_S_REGS_USER | PD_S_STACK_USER)
#define MISC_KERNEL 1
#define MISC_USER 2
#define MISC_HYPERVISOR 3

int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->session = s;
	p->nsecs = nsecs;
	p->max_stack = 127;      /* perf's PERF_MAX_STACK_DEPTH */
	rf_init(&p->rf);
	p->buf = malloc(RO_SIZE);
	if (!p->buf)
		return -1;
	p->pos = p->buf;
	p->end = p->buf + RO_SIZE;
	return 0;
}

int report_print_setup(struct report_print *p, const char **fields, int nr_fields,
		       int reltime, int deltatime, int no_callchain, unsigned long max_stack)
{
	if (reltime && deltatime) {     /* perf 6.1: builtin-script.c cmd_script */
		perf_msg("reltime and deltatime - the two don't get along well. "
			 "Please limit to --reltime or --deltatime.\n");
		return -1;
	}
	for (int i = 0; i < nr_fields; i++)
		if (rf_parse(&p->rf, fields[i]))
			return -1;
	if (rf_check(&p->rf, p->session, no_callchain))
		return -1;
	rf_unsupported_note(&p->rf);
	for (int j = 0; j < RF_NR_TYPES; j++)
		if (p->rf.t[j].fields & RF_BRSTACKOFF)
			p->track_loaded = 1;
	p->reltime = reltime;
	p->deltatime = deltatime;
	p->max_stack = max_stack;
	return 0;
}

static int hold_settle(struct report_print *p);

void report_print_flush(void *p)
{
	hold_settle(p);
	if (((struct report_print *)p)->buf)
		ro_flush(p);
}

static void frames_free(struct report_print *p);

int report_print_finish(struct report_print *p)
{
	hold_settle(p);
	if (p->buf)
		ro_flush(p);
	free(p->buf);
	frames_free(p);
	rp_head_free(p);
	rp_srccode_free(p);
	p->buf = p->pos = p->end = NULL;
	return ferror(p->out) || p->hold_lost ? -1 : 0;
}

static int max_name_len(struct pd_session *s)
{
	int max = 0;

	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		int len = (int)strlen(pd_session_evsel(s, i)->name);

		if (len > max)
			max = len;
	}
	return max;
}

static void put_dso(struct report_print *p, const char *dso)
{
	ro_mem(p, " (", 2);
	ro_str(p, dso);
	ro_ch(p, ')');
}

/* perf's map__fprintf_srcline: "\n  FILE:LINE" under a frame, when it has a map */
static void put_srcline(struct report_print *p, struct sym_machine *m, int32_t pid,
			uint16_t cpumode, uint64_t ip, const struct sym_loc *sl)
{
	const char *text = m ? sym_machine_srcline(m, pid, cpumode, ip, sl) : NULL;

	if (text) {
		ro_mem(p, "\n  ", 3);
		ro_str(p, text);
	}
}

/* the ip/sym/dso part for a sample without a stack (sample__fprintf_sym) */
static void print_ip_line(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;
	struct sym_machine *m = pd_session_symbols(p->session);
	struct sym_loc sl;
	struct rp_loc l;
	int have_sl = 0;

	if (f & (RF_SYM | RF_DSO))
		have_sl = rp_resolve_full(p, smp->pid, ev->misc & 7, smp->ip, &l, &sl);
	else if (f & RF_SRCLINE)       /* no symbol shown: none looked up as loaded */
		have_sl = m && !sym_machine_resolve(m, smp->pid, ev->misc & 7, smp->ip, &sl);
	if (f & RF_IP)
		ro_unum(p, smp->ip, 16, 16, ' ');
	if (f & RF_SYM) {
		ro_ch(p, ' ');
		ro_sym(p, &l, f & RF_SYMOFFSET);
	}
	if (f & RF_DSO)
		put_dso(p, l.dso);
	if ((f & RF_SRCLINE) && have_sl && sl.have_map)
		put_srcline(p, m, smp->pid, ev->misc & 7, smp->ip, &sl);
}

/* Whether the walk thread__resolve_callchain_sample makes meets a context
 * it does not know: perf then drops the whole stack. */
static int stack_is_corrupt(const struct pd_sample *smp, unsigned long max_stack)
{
	unsigned long entries = 0;

	for (uint64_t i = 0; i < smp->nr_callchain && entries < max_stack; i++) {
		uint64_t ip = pd_u64(smp->callchain + 8 * i);

		if (ip < PERF_CONTEXT_MAX)
			entries++;
		else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
			 ip != PERF_CONTEXT_USER)
			return 1;
	}
	return 0;
}

/*
 * Stack lines already printed: stacks repeat their frames, in every process
 * that maps the same file. A user frame's line depends only on its map's DSO
 * and the address in that DSO (sym_machine_map_of), but for perf's offset
 * of an address past its symbol's end, counted from the map's start: that
 * line is kept with the start (RP_BY_START). A kernel frame's line depends
 * on its address while the kernel's map stays (sym_machine_gen). Two-way
 * sets by those keys, the least recently used of a set replaced; a line
 * longer than a slot is a copy the slot points to (1 MiB of them at most).
 * 16,384 slots of 128 bytes (2 MiB), in one huge page where the kernel
 * gives them (the sets are met at random). report-stacks' 759,000 mapped
 * frames: 47,900 distinct lines, 3% of the prints longer than 88 bytes
 * (ld.so's path); 105,000 frames resolved again with one way, the start
 * in every user key and no longer lines kept, 82,600 with two ways and
 * the start where it counts, 68,000 now.
 */
#define RP_FRAME_BITS 14
#define RP_FRAMES     (1u << RP_FRAME_BITS)
#define RP_FRAME_TEXT 88
#define RP_BY_START   1          /* rp_frame.flags: the line depends on c */
#define RP_MRU        2          /* in a set's first slot: the second was used last */
#define RP_LONG       4          /* text holds a pointer to the line's copy */
#define RP_UNWOUND    0x80       /* in rp_frame.mode: a frame a DWARF stack unwound */
#define RP_LONG_LINE  512
#define RP_LONG_BYTES (1u << 20)
struct rp_frame {
	uint64_t a, b, c, f;     /* kernel: ip, 0, 0; user: map_ip, dso, map start */
	uint32_t gen;            /* kernel: sym_machine_gen; user: 0 */
	uint8_t mode, flags;
	uint16_t len;
	char text[RP_FRAME_TEXT];
};
_Static_assert(sizeof(struct rp_frame) == 128, "a frame slot is two cache lines");

/* the two slots of (@k->a, @k->b)'s set, or NULL (no memory) */
static struct rp_frame *frame_set(struct report_print *p, const struct rp_frame *k)
{
	uint64_t h = (k->a ^ k->b * 0xff51afd7ed558ccdULL) * 0x9e3779b97f4a7c15ULL;
	size_t bytes = RP_FRAMES * sizeof(*p->frames);

	if (!p->frames) {
		if (!(p->frames = huge_alloc(bytes)))
			return NULL;
		memset(p->frames, 0, bytes);
	}
	return &p->frames[(h >> (64 - RP_FRAME_BITS + 1)) * 2];
}

static int frame_is(const struct rp_frame *c, const struct rp_frame *k, uint64_t f)
{
	return c->len && c->a == k->a && c->b == k->b && c->f == f && c->gen == k->gen &&
	       c->mode == k->mode && (!(c->flags & RP_BY_START) || c->c == k->c);
}

static const char *frame_text(const struct rp_frame *c)
{
	const char *t = c->text;

	if (c->flags & RP_LONG)
		memcpy(&t, c->text, sizeof(t));
	return t;
}

static void frame_drop(struct report_print *p, struct rp_frame *c)
{
	if (c->flags & RP_LONG) {
		free((char *)frame_text(c));
		p->frames_heap -= c->len;
		c->flags &= (uint8_t)~RP_LONG;
	}
	c->len = 0;
}

/* the set's slot @i is the one used last */
static struct rp_frame *frame_used(struct rp_frame *set, int i)
{
	set[0].flags = (uint8_t)((set[0].flags & ~RP_MRU) | (i ? RP_MRU : 0));
	return &set[i];
}

/* the set's slot to print a new line into: an empty one, else the one used
 * less recently; it becomes the one used last */
static struct rp_frame *frame_victim(struct report_print *p, struct rp_frame *set)
{
	int i = !set[0].len ? 0 : !set[1].len ? 1 : !(set[0].flags & RP_MRU);

	frame_drop(p, &set[i]);
	return frame_used(set, i);
}

/* keep the line printed since @start (ro_keep_begin) in @c: in the slot,
 * or a copy the slot points to; @c stays empty when neither can be */
static void frame_keep(struct report_print *p, struct rp_frame *c, const char *start,
		       unsigned long flushes)
{
	size_t n = (size_t)(p->pos - start);
	char *copy;

	if (p->flushes != flushes)
		return;
	if (n <= RP_FRAME_TEXT) {
		memcpy(c->text, start, n);
		c->len = (uint16_t)n;
		return;
	}
	if (n > RP_LONG_LINE || p->frames_heap + n > RP_LONG_BYTES || !(copy = malloc(n)))
		return;
	memcpy(copy, start, n);
	memcpy(c->text, &copy, sizeof(copy));
	c->flags |= RP_LONG;
	c->len = (uint16_t)n;
	p->frames_heap += n;
}

static void frames_free(struct report_print *p)
{
	for (size_t i = 0; p->frames && i < RP_FRAMES; i++)
		frame_drop(p, &p->frames[i]);
	free(p->frames);
	p->frames = NULL;
}

/* one frame's line: address, symbol, dso, source line; inlined functions
 * first, each a line of its own (perf's append_inlines). Returns 1 when the
 * line depends on the map's start (sym_machine_resolve's offset past a
 * symbol's end), else 0. */
static int print_frame(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t ip,
			uint64_t f, int unwound)
{
	struct sym_machine *m = pd_session_symbols(p->session);
	struct sym_inline inl[16];
	struct sym_loc sl;
	struct rp_loc l;
	size_t n = 0;
	int have_sl;

	/* the whole location too, for inline frames (perf 6.1 adds them to the
	 * frames its unwinder found only) and source lines */
	have_sl = rp_resolve_full(p, pid, cpumode, ip, &l, &sl) && sl.have_map;
	if (have_sl && unwound)
		n = sym_machine_inlines(m, pid, cpumode, ip, &sl, inl, 16);
	for (size_t i = 0; i < (n ? n : 1); i++) {
		int inlined = n && inl[i].inlined;

		if (n)
			l.sym = inl[i].name;
		if (f & RF_IP) {
			/* user frames show the offset in their DSO, the
			 * kernel's (its modules, JIT code) the address */
			ro_ch(p, '\t');
			ro_unum(p, l.have_map && !l.is_kernel && (int64_t)ip >= 0 ? l.map_ip : ip, 16, 16,
				' ');
		}
		if (f & RF_SYM) {
			ro_ch(p, ' ');
			ro_sym(p, &l, f & RF_SYMOFFSET);
		}
		if ((f & RF_DSO) && !inlined)
			put_dso(p, l.dso);
		if ((f & RF_SRCLINE) && n && inl[i].srcline) {
			ro_mem(p, "\n  ", 3);
			ro_str(p, inl[i].srcline);
		} else if ((f & RF_SRCLINE) && have_sl) {
			put_srcline(p, m, pid, cpumode, ip, &sl);
		}
		if (inlined)
			ro_str(p, " (inlined)");
		ro_ch(p, '\n');
	}
	return have_sl && sl.sym && sl.map_ip >= sl.sym_end;
}

enum { FK_NONE, FK_KEY, FK_UNMAPPED };

/* the frame's cache key (FK_KEY); FK_UNMAPPED for a user address no map
 * holds; FK_NONE when it is not to be cached */
static int frame_key(struct report_print *p, struct sym_machine *m, int32_t pid, uint16_t mode,
		     uint64_t ip, struct rp_frame *k)
{
	const void *dso;

	/* brstackoff keeps track of every lookup: no shortcut then */
	if (!m || p->track_loaded)
		return FK_NONE;
	k->gen = 0;
	k->mode = (uint8_t)mode;
	if (mode == MISC_KERNEL) {
		k->a = ip;
		k->b = k->c = 0;
		k->gen = sym_machine_gen(m, pid, mode);
		return FK_KEY;
	}
	/* a user address in the kernel's half prints as itself: not kept */
	if (mode != MISC_USER || (int64_t)ip < 0)
		return FK_NONE;
	if (!sym_machine_map_of(m, pid, ip, &dso, &k->a, &k->c))
		return FK_UNMAPPED;
	k->b = (uint64_t)(uintptr_t)dso;
	return FK_KEY;
}

/*
 * A user frame no map holds: "[unknown] ([unknown])" after its address,
 * whatever the address (a fifth of a build profile's frames, nearly all
 * distinct: the frame cache cannot keep them). The line after the address
 * (17 columns: a tab and 16 digits, with RF_IP) is kept per field set
 * from the first such frame print_frame printed.
 */
static void print_unmapped(struct report_print *p, int32_t pid, uint64_t ip, uint64_t f,
			   int unwound)
{
	size_t skip = f & RF_IP ? 17 : 0, n;
	char line[sizeof(p->unmapped_text) + 17];
	unsigned long flushes;
	char *start;

	if (p->unmapped_len && p->unmapped_f == f) {
		if (f & RF_IP) {
			ro_ch(p, '\t');
			ro_unum(p, ip, 16, 16, ' ');
		}
		ro_mem(p, p->unmapped_text, p->unmapped_len);
		return;
	}
	start = ro_keep_begin(p, &flushes);
	print_frame(p, pid, MISC_USER, ip, f, unwound);
	n = ro_keep_end(p, start, flushes, line, sizeof(line));
	if (n > skip && n - skip <= sizeof(p->unmapped_text)) {
		p->unmapped_len = (unsigned)(n - skip);
		p->unmapped_f = f;
		memcpy(p->unmapped_text, line + skip, n - skip);
	}
}

/* one frame of a stack: its line kept from before, or printed and kept */
static void print_stack_frame(struct report_print *p, struct sym_machine *m, int32_t pid,
			      uint16_t cpumode, uint64_t ip, uint64_t f, int dwarf)
{
	struct rp_frame k, *set, *c;
	unsigned long flushes;
	char *start;
	int key, by_start, unwound = dwarf && cpumode == MISC_USER;

	key = frame_key(p, m, pid, cpumode, ip, &k);
	if (key == FK_UNMAPPED) {
		print_unmapped(p, pid, ip, f, dwarf);
		return;
	}
	if (key == FK_KEY && unwound)
		k.mode |= RP_UNWOUND;       /* its inline frames are printed */
	if (key == FK_NONE || !(set = frame_set(p, &k))) {
		print_frame(p, pid, cpumode, ip, f, unwound);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (frame_is(&set[i], &k, f)) {
			c = frame_used(set, i);
			ro_mem(p, frame_text(c), c->len);
			return;
		}
	c = frame_victim(p, set);
	start = ro_keep_begin(p, &flushes);
	by_start = print_frame(p, pid, cpumode, ip, f, unwound);
	c->a = k.a;
	c->b = k.b;
	c->c = k.c;
	c->f = f;
	c->gen = k.gen;
	c->mode = k.mode;
	c->flags = (uint8_t)((c->flags & RP_MRU) | (by_start ? RP_BY_START : 0));
	frame_keep(p, c, start, flushes);
}

/*
 * The kernel's symbols are read on a thread of their own from the start
 * (sym_kernel.c): some 40 ms of the kernel formatting /proc/kallsyms, for
 * which the first kernel frame waited. Instead, the printed bytes are
 * held from there on, each kernel frame a hole in them, until the symbols
 * are in (looked at before each sample), 8 MiB or 256 Ki frames are held,
 * or a record is to change the kernel's maps or a kernel address is looked
 * up other than as a frame here (sym_machine_set_kernel_hook): then the
 * held bytes go out with the frames printed into their holes, in order,
 * as they would have been printed. Whatever else writes to the output
 * flushes the printer first (report_print_flush), which lets go. Not with
 * one thread (sym_machine_kernel_pending): the read-ahead then shares the
 * printer's CPU.
 * report-stacks: 0.133 -> 0.116 s (medians of 31 runs, alternating), peak RSS
 * 26 -> 30 to 34 MiB.
 */
#define RP_HOLD_MAX   (8u << 20)
#define RP_HOLD_HOLES (1u << 18)    /* 4 MiB of them */
#define RP_HOLD_ROOM  (1u << 20)    /* a sample's room, made before it */

/* the held bytes [@from, @to) to the output, those after h->bytes from @rest */
static void hold_copy(struct report_print *p, const struct rp_hold *h, const char *rest,
		      uint64_t from, uint64_t to)
{
	while (from < to) {
		const char *s;
		size_t n;

		if (from < h->bytes) {
			s = rp_hold_piece(h, from, to < h->bytes ? to : h->bytes, &n);
		} else {
			s = rest + (from - h->bytes);
			n = (size_t)(to - from);
		}
		ro_mem(p, s, n);
		from += n;
	}
}

/* Let go of the hold: the held bytes and their kernel frames (which wait
 * for the kernel's symbols), then what the buffer has, all to the output.
 * 0, or -1 when bytes were lost for want of memory (said). */
static int hold_settle(struct report_print *p)
{
	struct rp_hold *h = p->hold;
	struct sym_machine *m = pd_session_symbols(p->session);
	char *rest = p->buf;
	uint64_t from = 0, total;

	if (!h)
		return 0;
	p->hold = NULL;
	sym_machine_set_kernel_hook(m, NULL, NULL);
	/* what is kept lost: only the bytes held, and the holes among them */
	total = h->failed ? h->bytes : h->bytes + (uint64_t)(p->pos - p->buf);
	p->buf = p->pos = h->spare;      /* the buffer's bytes come after the held */
	p->end = p->buf + RO_SIZE;
	p->flushes++;                    /* a piece being kept (ro_keep_begin) is not */
	h->spare = rest;
	for (size_t i = 0; i <= h->nr_holes; i++) {
		uint64_t to = i < h->nr_holes ? from + h->holes[i].gap : total;

		hold_copy(p, h, rest, from, to < total ? to : total);
		if (i == h->nr_holes || to > total)
			break;
		print_stack_frame(p, m, h->holes[i].pid, MISC_KERNEL, h->holes[i].ip, h->f, 0);
		from = to;
	}
	if (h->failed) {
		error_msg("out of memory holding the output while the kernel's symbols were "
			  "read: it is incomplete");
		p->hold_lost = 1;
	}
	rp_hold_free(h);
	return p->hold_lost ? -1 : 0;
}

static void hold_settle_hook(void *p)
{
	hold_settle(p);
}

/* Before a sample of @nr_callchain frames printed with fields @f: the
 * hold lets go once the kernel's symbols are in, when it is full, for
 * other fields, or when the sample's room cannot be made. 0, or -1
 * (hold_settle) */
static int hold_check(struct report_print *p, uint64_t f, uint64_t nr_callchain)
{
	struct sym_machine *m = pd_session_symbols(p->session);

	if (!p->hold)
		return 0;
	if (!sym_machine_kernel_pending(m) || p->hold->bytes > RP_HOLD_MAX ||
	    p->hold->nr_holes > RP_HOLD_HOLES || p->hold->f != f ||
	    rp_hold_reserve(p->hold, RP_HOLD_ROOM, (size_t)nr_callchain))
		return hold_settle(p);
	return 0;
}

/* A kernel frame of @smp's stack: a hole in the held bytes while the
 * kernel's symbols are read (the hold begins at the first), 1; else 0:
 * print it now. hold_check made room for the sample's frames and let go
 * of a hold of other fields, so a frame of a held sample is always a
 * hole: none is looked up (which lets go, sym_machine_set_kernel_hook)
 * while its slot of the line cache is being filled. */
static int hold_frame(struct report_print *p, struct sym_machine *m, const struct pd_sample *smp,
		      uint64_t ip, uint64_t f)
{
	struct rp_hold *h = p->hold;

	if (!h) {
		/* brstackoff's DSOs loaded depend on the order of the lookups */
		if (!m || p->track_loaded || !sym_machine_kernel_pending(m) ||
		    !(h = rp_hold_new(f, RO_SIZE)))
			return 0;
		if (rp_hold_reserve(h, RP_HOLD_ROOM, (size_t)smp->nr_callchain)) {
			rp_hold_free(h);
			return 0;
		}
		p->hold = h;
		sym_machine_set_kernel_hook(m, hold_settle_hook, p);
	}
	if (!rp_hold_hole(h, h->bytes + (uint64_t)(p->pos - p->buf), ip, smp->pid))
		return 1;
	hold_settle(p);
	return 0;
}

/* one line per frame, callee first (sample__fprintf_callchain) */
static void print_stack(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;
	struct sym_machine *m = pd_session_symbols(p->session);
	unsigned long entries = 0;
	uint16_t cpumode = MISC_USER;
	/* the recorded kernel part, then the unwound user part (pd_session_unwound) */
	int dwarf = (ev->evsel->sample_type & DWARF_STACK) == DWARF_STACK;

	if (stack_is_corrupt(smp, p->max_stack))
		return;
	for (uint64_t i = 0; i < smp->nr_callchain; i++) {
		uint64_t ip = pd_u64(smp->callchain + 8 * i);

		if (ip >= PERF_CONTEXT_MAX) {
			cpumode = ip == PERF_CONTEXT_HV ? MISC_HYPERVISOR :
				  ip == PERF_CONTEXT_KERNEL ? MISC_KERNEL : MISC_USER;
			/* perf limits the unwound user part on its own */
			if (dwarf && ip == PERF_CONTEXT_USER)
				entries = 0;
			continue;
		}
		if (entries >= p->max_stack) {
			if (!dwarf)
				break;
			continue;
		}
		entries++;
		if (cpumode == MISC_KERNEL && hold_frame(p, m, smp, ip, f))
			continue;
		print_stack_frame(p, m, smp->pid, cpumode, ip, f, dwarf);
	}
}

/* perf's unwinders refuse a stack of no frames (--max-stack 0) where a
 * user stack was captured: the sample then prints as one without a stack */
static int unwind_refused(const struct report_print *p, const struct pd_event *ev)
{
	const struct pd_sample *smp = ev->sample;

	return !p->max_stack && (ev->evsel->sample_type & DWARF_STACK) == DWARF_STACK &&
	       smp->user_regs_abi && smp->user_stack_dyn_size;
}

int report_print_sample(void *ctx, const struct pd_event *ev)
{
	struct report_print *p = ctx;
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = ev->evsel;
	uint64_t f = p->rf.t[rf_type_of(e->type)].fields;

	if (!f)
		return 0;
	if (hold_check(p, f, smp->nr_callchain))
		return -1;
	rp_head(p, ev, f);
	if (f & RF_PERIOD) {
		ro_unum(p, smp->period, 10, 10, ' ');
		ro_ch(p, ' ');
	}
	if (f & RF_EVNAME) {
		if (!p->name_width)
			p->name_width = max_name_len(p->session);
		rp_name(p, ev);
	}
	if (p->rf.print_flags)
		ro_pad(p, 24);         /* "  %-21s " of no flags: only itrace sets them */
	/* the record's own format: a group member's READ delivery carries
	 * its leader's, which perf prints (libtraceevent goes by common_type) */
	if ((f & RF_TRACE) && smp->raw && ev->raw_evsel->dec) {
		const char *text;
		size_t room;
		long n;

		ro_room(p, 8192);
		room = (size_t)(p->end - p->pos);
		n = tp_render(ev->raw_evsel->dec, smp->raw, smp->raw_size, smp->cpu, p->pos, room,
			      &text);
		if (n < 0)
			return -1;
		if (text == p->pos)
			p->pos += n;
		else
			ro_mem(p, text, (size_t)n);
	}
	if (f & RF_MID_FIELDS)
		report_print_fields_mid(p, ev, f);
	if ((f & RF_IP) && (e->sample_type & DWARF_STACK) == DWARF_STACK && !p->told_dwarf &&
	    pd_session_unwind_arch_unknown(p->session)) {
		/* --call-graph dwarf of an arch whose registers we do not know:
		 * the recorded (kernel) part of the stack only, said once */
		p->told_dwarf = 1;
		warn_msg("%s has DWARF stacks (--call-graph dwarf) of an arch whose registers "
			 "are not known here: its user stacks are not unwound", e->name);
	}
	if (f & RF_IP) {
		if (p->rf.use_callchain && (e->sample_type & PD_S_CALLCHAIN) &&
		    !unwind_refused(p, ev)) {
			ro_ch(p, '\n');
			print_stack(p, ev, f);
		} else {
			ro_ch(p, ' ');
			print_ip_line(p, ev, f);
		}
	}
	if (f & RF_TAIL_FIELDS)
		report_print_fields_tail(p, ev, f);
	ro_ch(p, '\n');
	if (f & RF_SRCCODE)
		rp_srccode(p, ev);
	if (p->pos - p->buf > (long)(RO_SIZE - 4096))
		ro_flush(p);
	/* the stream has one user; unlocked: with a reader thread
	 * (pd_pipeline.h) stdio would otherwise lock it every line */
	return ferror_unlocked(p->out) ? -1 : 0;
}
