/* perl.c - the embedded Perl 5 engine: runs a perf-style Perl trace
 * script, calling system::event($event_name, $context, $common_cpu,
 * $common_secs, $common_nsecs, $common_pid, $common_comm,
 * $common_callchain, fields...) for every sample through call_sv on a
 * cached CV with reused argument SVs. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include "engine.h"
#include "perl_int.h"
#include "syscall_map.h"
#include "idtable.h"
#include "tp_fields.h"
#include "tp_symbols.h"

#define NR_COMMON 8

struct pl_event {             /* per tracepoint id */
	int ready;
	struct tp_layout layout;
	char *name;               /* "system::event" */
	CV *cv;                   /* NULL: trace_unhandled or nothing */
	SV **args;                /* reused: common arguments, then fields */
	size_t nr_args;
};

struct engine_run {
	const struct engine_start *st;
	PerlInterpreter *perl;
	struct pl_current cur;
	struct idtable evs;       /* per tracepoint id: struct pl_event */
	CV *unhandled;
	SV *context;              /* $context: an IV naming @cur */
	SV *empty_chain;          /* [] for samples without a callchain */
	int started;
	int loaded;               /* the script loaded: trace_end may run */
};

static int sys_inited;

static void log_text(struct engine_run *r, const char *text)
{
	if (r->st->log)
		r->st->log(r->st->log_ctx, text);
}

/* ---- errors ---- */

static int error_from_errsv(struct engine_run *r, struct tb_err *err, const char *what,
			    unsigned long long n)
{
	dTHXa(r->perl);
	const char *msg = SvPV_nolen(ERRSV);
	const char *dl = strstr(msg, "Can't load module ");

	PerlIO_flush(PerlIO_stdout());
	if (dl && strstr(msg, "dynamic loading not available")) {
		char mod[128];

		if (sscanf(dl, "Can't load module %127[^, ]", mod) == 1)
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					  "the script loads '%s', an XS module this static build "
					  "cannot load: use the dynamic build (make dynamic, then "
					  "build/dyn/tracebox)", mod);
	}
	log_text(r, msg);
	if (msg[0] && msg[strlen(msg) - 1] != '\n')
		log_text(r, "\n");
	return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, what, n);
}

/* ---- the interpreter ---- */

static void xs_init(pTHX)
{
	static char file[] = __FILE__;

	newXS("Perf::Trace::Context::bootstrap", boot_Perf__Trace__Context, file);
#ifdef TRACEBOX_DYNAMIC
	{
		extern void boot_DynaLoader(pTHX_ CV *cv);

		newXS("DynaLoader::boot_DynaLoader", boot_DynaLoader, file);
	}
#endif
}

static int start_interpreter(struct engine_run *r, struct tb_err *err)
{
	char lib1[4200], lib2[4200];
	char *args[8];
	int n = 0;
	struct stat st;

	if (!sys_inited) {
		int argc = 0;
		char **argv = NULL, **env = NULL;

		PERL_SYS_INIT3(&argc, &argv, &env);
		sys_inited = 1;
	}
	r->perl = perl_alloc();
	if (!r->perl)
		return TB_ERR_NOMEM;
	PERL_SET_CONTEXT(r->perl);
	perl_construct(r->perl);
	{
		dTHXa(r->perl);

		PL_exit_flags |= PERL_EXIT_DESTRUCT_END;
	}
	snprintf(lib1, sizeof(lib1), "-I%s/scripts/perl/Perf-Trace-Util/lib", r->st->exec_path);
	snprintf(lib2, sizeof(lib2), "-I%s/lib/perl5", r->st->exec_path);
	args[n++] = (char *)"tracebox";
	args[n++] = lib1;
	if (stat(lib2 + 2, &st) == 0)
		args[n++] = lib2;
	args[n++] = (char *)"-e";
	args[n++] = (char *)"0";
	args[n] = NULL;
	if (perl_parse(r->perl, xs_init, n, args, NULL) || perl_run(r->perl))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "cannot start Perl");
	r->started = 1;
	return 0;
}

/* @ARGV, $0, the syscall map hash, the current-event context. */
static int set_globals(struct engine_run *r)
{
	dTHXa(r->perl);
	const struct pd_header_info *h = pd_session_info(r->st->session);
	const struct syscall_map *map = h->has_syscalls ? &h->syscalls : NULL;
	struct syscall_map builtin = { 0 };
	AV *argv = get_av("ARGV", GV_ADD);
	HV *sc = get_hv("Perf::Trace::Context::syscall_map", GV_ADD);

	av_clear(argv);
	for (int i = 1; i < r->st->argc; i++)
		av_push(argv, newSVpv(r->st->argv[i], 0));
	sv_setpv(get_sv("0", GV_ADD), r->st->script);
	/* do FILE searches @INC unless the path is explicit */
	sv_setpvf(get_sv("main::__tracebox_script", GV_ADD), "%s%s",
		  r->st->script[0] == '/' || r->st->script[0] == '.' ? "" : "./", r->st->script);
	if (!map && h->arch && scmap_from_builtin(&builtin, h->arch, NULL) == 0)
		map = &builtin;
	for (uint32_t i = 0; map && i < map->nr; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%u", map->ents[i].nr);
		(void)hv_store(sc, key, (I32)strlen(key), newSVpv(map->ents[i].name, 0), 0);
	}
	if (map == &builtin)
		scmap_free(&builtin);
	pl_set_current(aTHX_ &r->cur);
	r->context = newSViv(PTR2IV(&r->cur));
	r->empty_chain = newRV_noinc((SV *)newAV());
	return 0;
}

static int run_script(struct engine_run *r, struct tb_err *err)
{
	dTHXa(r->perl);
	SV *code = newSVpvs("package main; my $f = $main::__tracebox_script; "
			    "die \"cannot read $f: $!\\n\" unless -r $f; do $f; die $@ if $@; 1");

	eval_sv(code, G_DISCARD | G_EVAL);
	SvREFCNT_dec(code);
	if (SvTRUE(ERRSV))
		return error_from_errsv(r, err, "the script died while loading (above)%.0llu", 0);
	return 0;
}

/* ---- symbol tables: perf's define_* calls ---- */

struct define_ctx {
	struct engine_run *r;
	const char *event;
	int failed;
};

static int call_define(struct define_ctx *d, const char *fn, const char *field,
		       const char *s1, UV value, int with_value)
{
	dTHXa(d->r->perl);
	char name[64];
	dSP;

	snprintf(name, sizeof(name), "main::%s", fn);
	if (!get_cv(name, 0))
		return 0;
	ENTER;
	SAVETMPS;
	PUSHMARK(SP);
	XPUSHs(sv_2mortal(newSVpv(d->event, 0)));
	XPUSHs(sv_2mortal(newSVpv(field, 0)));
	if (with_value)
		XPUSHs(sv_2mortal(newSVuv(value)));
	if (s1)
		XPUSHs(sv_2mortal(newSVpv(s1, 0)));
	PUTBACK;
	call_pv(name, G_DISCARD | G_EVAL);
	FREETMPS;
	LEAVE;
	return SvTRUE(ERRSV) ? -1 : 0;
}

static int define_field(void *ctx, enum tp_sym_kind kind, const char *field, const char *delim)
{
	return kind == TP_SYM_FLAGS ? call_define(ctx, "define_flag_field", field, delim, 0, 0)
				    : call_define(ctx, "define_symbolic_field", field, NULL, 0, 0);
}

static int define_value(void *ctx, enum tp_sym_kind kind, const char *field, uint64_t value,
			const char *str)
{
	return call_define(ctx, kind == TP_SYM_FLAGS ? "define_flag_value" : "define_symbolic_value",
			   field, str, (UV)value, 1);
}

/* ---- events ---- */

static struct pl_event *event_info(struct engine_run *r, struct tep_event *tp, struct tb_err *err)
{
	dTHXa(r->perl);
	struct pl_event *e = idtable_slot(&r->evs, tp->id);

	if (!e) {
		tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "tracepoint id %d out of range", tp->id);
		return NULL;
	}
	if (e->ready)
		return e;
	if (tp_layout_build(&e->layout, tp)) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	e->name = malloc(strlen(tp->system) + strlen(tp->name) + 3);
	e->nr_args = NR_COMMON + e->layout.nr;
	e->args = calloc(e->nr_args, sizeof(*e->args));
	if (!e->name || !e->args) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	sprintf(e->name, "%s::%s", tp->system, tp->name);
	e->cv = get_cv(e->name, 0);
	e->args[0] = newSVpv(e->name, 0);
	for (size_t i = 1; i < e->nr_args; i++)
		e->args[i] = newSV(0);
	e->ready = 1;
	return e;
}

/* Set the reused SV of one field. */
static void set_field(pTHX_ SV *sv, const struct tp_field *f, const unsigned char *raw,
		      size_t size)
{
	const unsigned char *p;
	uint64_t v;
	size_t len;

	switch (f->kind) {
	case TP_INT:
		if (tp_read_int(f, raw, size, 0, &v))
			sv_setsv(sv, &PL_sv_undef);
		else
			sv_setiv(sv, (IV)(int64_t)v);
		return;
	case TP_UINT:
		if (tp_read_int(f, raw, size, 0, &v))
			sv_setsv(sv, &PL_sv_undef);
		else
			sv_setuv(sv, (UV)v);
		return;
	case TP_ARRAY: {
		AV *av = newAV();

		for (int i = 0; i < f->count; i++) {
			if (tp_read_int(f, raw, size, i, &v))
				av_push(av, newSV(0));
			else if (f->is_signed)
				av_push(av, newSViv((IV)(int64_t)v));
			else
				av_push(av, newSVuv((UV)v));
		}
		sv_setsv(sv, sv_2mortal(newRV_noinc((SV *)av)));
		return;
	}
	case TP_STRING:
		if (tp_read_bytes(f, raw, size, &p, &len))
			sv_setsv(sv, &PL_sv_undef);
		else
			sv_setpvn(sv, (const char *)p, strnlen((const char *)p, len));
		return;
	default:
		if (tp_read_bytes(f, raw, size, &p, &len))
			sv_setsv(sv, &PL_sv_undef);
		else
			sv_setpvn(sv, (const char *)p, len);
		return;
	}
}

static SV *callchain_ref(pTHX_ struct engine_run *r, const struct pd_sample *s)
{
	AV *av;

	if (!s->nr_callchain)
		return SvREFCNT_inc(r->empty_chain);
	av = newAV();
	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip;
		HV *hv;

		memcpy(&ip, s->callchain + i * 8, 8);
		if (ip >= 0xfffffffffffff000ULL)
			continue;           /* context markers */
		hv = newHV();
		(void)hv_stores(hv, "ip", newSVuv((UV)ip));
		av_push(av, newRV_noinc((SV *)hv));
	}
	return newRV_noinc((SV *)av);
}

static int pl_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	dTHXa(r->perl);
	const struct pd_sample *s = ev->sample;
	struct tep_event *tp = ev->evsel->tp;
	struct pl_event *e;
	SV *chain;
	CV *cv;
	dSP;

	if (!tp || !s->raw)
		return 0;
	e = event_info(r, tp, err);
	if (!e)
		return err->code ? err->code : TB_ERR_NOMEM;
	cv = e->cv ? e->cv : r->unhandled;
	if (!cv)
		return 0;
	r->cur.raw = s->raw;
	r->cur.size = s->raw_size;
	r->cur.off_flags = e->layout.off_flags;
	r->cur.off_preempt = e->layout.off_preempt;
	r->cur.off_lock_depth = e->layout.off_lock_depth;
	ENTER;
	SAVETMPS;
	sv_setsv(e->args[1], r->context);
	sv_setuv(e->args[2], (UV)(s->cpu < 0 ? 0 : s->cpu));
	sv_setuv(e->args[3], (UV)(s->time / 1000000000ULL));
	sv_setuv(e->args[4], (UV)(s->time % 1000000000ULL));
	sv_setiv(e->args[5], tp_common_int(s->raw, s->raw_size, e->layout.off_pid, 4, 1));
	sv_setpv(e->args[6], ev->comm);
	chain = callchain_ref(aTHX_ r, s);
	sv_setsv(e->args[7], sv_2mortal(chain));
	for (size_t i = 0; i < e->layout.nr; i++)
		set_field(aTHX_ e->args[NR_COMMON + i], &e->layout.fields[i], s->raw, s->raw_size);
	PUSHMARK(SP);
	EXTEND(SP, (SSize_t)e->nr_args);
	for (size_t i = 0; i < e->nr_args; i++)
		PUSHs(e->args[i]);
	PUTBACK;
	call_sv((SV *)cv, G_DISCARD | G_EVAL);
	FREETMPS;
	LEAVE;
	if (SvTRUE(ERRSV)) {
		char what[400];

		snprintf(what, sizeof(what), "%s died on event %%llu (above)",
			 e->cv ? e->name : "trace_unhandled");
		return error_from_errsv(r, err, what, ev->index);
	}
	return 0;
}

/* ---- start and stop ---- */

static int call_optional(struct engine_run *r, const char *fn, struct tb_err *err)
{
	dTHXa(r->perl);
	char name[64];
	dSP;

	snprintf(name, sizeof(name), "main::%s", fn);
	if (!get_cv(name, 0))
		return 0;
	PUSHMARK(SP);
	call_pv(name, G_DISCARD | G_NOARGS | G_EVAL);
	if (SvTRUE(ERRSV))
		return error_from_errsv(r, err, "trace_begin or trace_end died%.0llu (above)", 0);
	return 0;
}

static int pl_start(struct engine_run **out, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));
	int rc;

	*out = r;
	if (!r)
		return TB_ERR_NOMEM;
	r->st = st;
	idtable_init(&r->evs, sizeof(struct pl_event));
	if (setenv("PERF_EXEC_PATH", st->exec_path, 1))
		return TB_ERR_NOMEM;
	if ((rc = start_interpreter(r, err)) || (rc = set_globals(r)) || (rc = run_script(r, err)))
		return rc;
	r->loaded = 1;
	{
		dTHXa(r->perl);

		r->unhandled = get_cv("main::trace_unhandled", 0);
	}
	for (size_t i = 0; i < pd_session_nr_evsels(st->session); i++) {
		struct tep_event *tp = pd_session_evsel(st->session, i)->tp;
		struct define_ctx d = { r, NULL, 0 };
		struct tp_sym_visitor v = { &d, define_field, define_value };
		struct pl_event *e;

		if (!tp)
			continue;
		e = event_info(r, tp, err);
		if (!e)
			return err->code ? err->code : TB_ERR_NOMEM;
		d.event = e->name;
		if (tp_walk_symbols(tp, &v))
			return error_from_errsv(r, err, "a define_* callback died%.0llu (above)", 0);
	}
	return call_optional(r, "trace_begin", err);
}

static int pl_stop(struct engine_run *r, struct tb_err *err)
{
	int rc = 0;

	if (!r)
		return 0;
	if (r->started) {
		dTHXa(r->perl);

		if (r->loaded)
			rc = call_optional(r, "trace_end", err);
		PerlIO_flush(PerlIO_stdout());
		for (size_t i = 0; i < r->evs.nr; i++) {
			struct pl_event *e = idtable_at(&r->evs, i);

			for (size_t a = 0; e->args && a < e->nr_args; a++)
				SvREFCNT_dec(e->args[a]);
		}
		SvREFCNT_dec(r->context);
		SvREFCNT_dec(r->empty_chain);
	}
	if (r->perl) {
		perl_destruct(r->perl);
		perl_free(r->perl);
	}
	for (size_t i = 0; i < r->evs.nr; i++) {
		struct pl_event *e = idtable_at(&r->evs, i);

		if (e->ready)
			tp_layout_free(&e->layout);
		free(e->name);
		free(e->args);
	}
	idtable_free(&r->evs);
	free(r);
	return rc;
}

int perl_generate(const struct engine_gen *g, struct tb_err *err);

const struct engine_ops perl_engine = {
	.name = "Perl",
	.alias = "pl",
	.ext = ".pl",
	.start = pl_start,
	.event = pl_event,
	.stop = pl_stop,
	.generate = perl_generate,
};
