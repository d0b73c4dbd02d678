/* perl.c - the embedded Perl 5 engine: runs a perf-style Perl trace
 * script, calling system::event($event_name, $context, $common_cpu,
 * $common_secs, $common_nsecs, $common_pid, $common_comm,
 * $common_callchain, fields...) for every sample through call_sv on a
 * cached CV with reused argument SVs. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "util/payload.h"
#include "perl/perl_int.h"

#define NR_COMMON 8

/* a sub perf looks up by name for every call (sub_now) */
struct sub_ref {
	const char *name;         /* "package::sub" */
	GV *gv;                   /* held: the glob found, or NULL */
	HV *stash;                /* held: its package, once that exists */
	U32 gen;                  /* the package's pkg_gen at the lookup */
	int looked;
};

struct perl_tracepoint {             /* per tracepoint id */
	struct ec_event ec;       /* its decoder, its handler name "system::event" */
	struct sub_ref handler;   /* "system::event" */
	SV **args;                /* reused: common arguments, then fields */
	size_t nr_args;
};

struct engine_run {
	struct ec_run core;       /* evs: per tracepoint id, struct perl_tracepoint */
	PerlInterpreter *perl;
	char *inc[2];             /* its -I arguments */
	struct sub_ref unhandled;      /* main::trace_unhandled */
	struct sub_ref process_event;  /* main::process_event */
	struct sym_machine *syms; /* the session's symbols, or NULL */
	SV *context;              /* $context: an IV naming @cur */
	SV *stringify;            /* a sub: "$_[0]" into $main::__tracebox_text */
	int started;
	int loaded;               /* the script loaded: trace_end may run */
	int exited;               /* the script called exit: no trace_end */
	int status;               /* ... with this status */
};

static int sys_inited;

/* ---- errors ---- */

static const char *errsv_text(struct engine_run *r, char *buf, size_t n);

/* $@ of a failed call: logged, then one summary line naming @who, the
 * event (NULL outside events) and @what happened. */
static int died(struct engine_run *r, struct tb_err *err, const struct pd_event *ev,
		const char *who, const char *what)
{
	char text[1024];
	const char *msg = errsv_text(r, text, sizeof(text));
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
	ec_log(&r->core, msg);
	if (msg[0] && msg[strlen(msg) - 1] != '\n')
		ec_log(&r->core, "\n");
	return ec_error(err, ev, who, "%s", what);
}

/* ---- exit() ---- */

typedef void guarded_fn(pTHX_ void *arg);

static int exited(const struct engine_run *r, struct tb_err *err)
{
	return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "the script exited with status %d",
			  r->status);
}

/* Run @fn(@arg) under a JMPENV of the engine's own. A script's exit()
 * unwinds through call_sv/eval_sv to the innermost JMPENV; without this
 * one that is perl's top level, which calls the C library's exit() at
 * once and loses what PerlIO still buffers (as perf 6.1 does). Here it is
 * flushed, the status goes to *st->exit_status and the run stops
 * (TB_ERR_STOP); END blocks run in perl_destruct, as perl runs them.
 * Returns 0, or TB_ERR_STOP when the script exited. */
static int guarded(struct engine_run *r, guarded_fn *fn, void *arg, struct tb_err *err)
{
	dTHXa(r->perl);
	I32 oldscope = PL_scopestack_ix;
	int ret;
	dJMPENV;

	JMPENV_PUSH(ret);
	if (ret == 0)
		fn(aTHX_ arg);
	JMPENV_POP;
	if (ret == 0)
		return 0;
	/* as perl_run after an exit: leave the scopes the unwind left open */
	while (PL_scopestack_ix > oldscope)
		LEAVE;
	FREETMPS;
	PerlIO_flush(PerlIO_stdout());
	r->exited = 1;
	r->status = ret == 2 ? (int)(STATUS_EXIT & 0xff) : 1;    /* the process status: exit(-1) is 255 */
	if (r->core.st->exit_status)
		*r->core.st->exit_status = r->status;
	return exited(r, err);
}

struct sub_call {
	SV *sv;
	I32 flags;
};

static void call_fn(pTHX_ void *arg)
{
	struct sub_call *c = arg;

	call_sv(c->sv, c->flags);
}

/* call_sv(@sv, @flags | G_EVAL) under guarded(): 0 or TB_ERR_STOP. */
static int call_guarded(struct engine_run *r, SV *sv, I32 flags, struct tb_err *err)
{
	struct sub_call c = { sv, flags | G_EVAL };

	return guarded(r, call_fn, &c, err);
}

/* Whether $@ says a call died: an object always (its "bool" overload is
 * the script's, run by no check here), else a true value */
static int failed(pTHX)
{
	SV *e = ERRSV;

	return SvROK(e) || SvTRUE_nomg(e);
}

/* $@ as text, in @buf: an object through its "" overload, called under the
 * guard and an eval (it may die or exit), else perl's CLASS=HASH(0x...) */
static const char *errsv_text(struct engine_run *r, char *buf, size_t n)
{
	dTHXa(r->perl);
	SV *e = newSVsv(ERRSV), *text;     /* held: an exit in the overload frees temps */
	struct tb_err ignored = { 0 };
	const char *p = NULL;
	STRLEN len;
	dSP;

	if (!SvROK(e) || !SvAMAGIC(e)) {
		p = SvPV(e, len);
	} else if (r->stringify) {
		PUSHMARK(SP);
		XPUSHs(e);
		PUTBACK;
		if (!call_guarded(r, r->stringify, G_DISCARD, &ignored) && !failed(aTHX) &&
		    (text = get_sv("main::__tracebox_text", 0)))
			p = SvPV(text, len);
	}
	if (p) {
		snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), p);
	} else {
		SV *o = SvRV(e);
		const char *cls = SvOBJECT(o) && HvNAME_HEK(SvSTASH(o)) ? HvNAME(SvSTASH(o)) : "?";

		snprintf(buf, n, "%s=%s(0x%lx)", cls, sv_reftype(o, 0), (unsigned long)PTR2UV(o));
	}
	sv_setsv(ERRSV, e);
	SvREFCNT_dec(e);
	return buf;
}

static void eval_fn(pTHX_ void *arg)
{
	eval_sv((SV *)arg, G_DISCARD | G_EVAL);
}

static void payload_fn(pTHX_ void *arg)
{
	const char **path = arg;

	if (perl_payload_run(aTHX_ *path))
		*path = NULL;
}

/* ---- the interpreter ---- */

static void xs_init(pTHX)
{
	static char file[] = __FILE__;

	newXS("Perf::Trace::Context::bootstrap", boot_Perf__Trace__Context, file);
	perl_payload_xs(aTHX);
#ifdef TRACEBOX_DYNAMIC
	{
		extern void boot_DynaLoader(pTHX_ CV *cv);

		newXS("DynaLoader::boot_DynaLoader", boot_DynaLoader, file);
	}
#endif
}

/* Address space Perl must find free to start and load a script. libperl
 * 5.36 does not check every allocation: its op slabs (Perl_Slab_Alloc,
 * while compiling) write through calloc's NULL, so under a tight ulimit -v
 * it dies of SIGSEGV with no word; its other allocations say "Out of
 * memory!" and exit, which the engine catches. A canned script takes
 * some 2 MB; we ask for twice that, reserved and given back at once. */
#define PERL_HEADROOM ((size_t)4 << 20)

static int have_headroom(void)
{
	void *p = mmap(NULL, PERL_HEADROOM, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, PERL_HEADROOM);
	return 1;
}

static int start_interpreter(struct engine_run *r, struct tb_err *err)
{
	char *args[8], prog[32];
	int n = 0, boot = perl_payload_boot();
	struct stat st;

	if (!have_headroom())
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET,
				  "out of memory: Perl needs %zu MB of address space free to "
				  "start (ulimit -v)", PERL_HEADROOM >> 20);
	if (!sys_inited) {
		int argc = 0;
		char **argv = NULL, **env = NULL;

		/* a board or a bare chroot has no locale files: perl falls back to
		 * "C" anyway, without its three-line complaint */
		setenv("PERL_BADLANG", "0", 0);
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
	/* asprintf leaves its pointer undefined when it fails */
	if (asprintf(&r->inc[0], "-I%s/scripts/perl/Perf-Trace-Util/lib", r->core.st->exec_path) < 0)
		r->inc[0] = NULL;
	if (asprintf(&r->inc[1], "-I%s/lib/perl5", r->core.st->exec_path) < 0)
		r->inc[1] = NULL;
	if (!r->inc[0] || !r->inc[1])
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	args[n++] = (char *)"tracebox";
	args[n++] = r->inc[0];
	if (stat(r->inc[1] + 2, &st) == 0)
		args[n++] = r->inc[1];
	/* the program: the payload's @INC hook (perl_payload.c), else -e 0 */
	snprintf(prog, sizeof(prog), "/dev/fd/%d", boot);
	args[n++] = boot >= 0 ? prog : (char *)"-e";
	if (boot < 0)
		args[n++] = (char *)"0";
	args[n] = NULL;
	/* perl closes the program's fd itself, when its parser is done */
	if (perl_parse(r->perl, xs_init, n, args, NULL) || perl_run(r->perl))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "cannot start Perl");
	r->started = 1;
	if (boot < 0) {
		dTHXa(r->perl);

		if (perl_payload_hook(aTHX))
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					  "cannot start Perl: the payload's @INC hook failed");
	}
	return 0;
}

/* @ARGV, $0, the syscall map hash, the current-event context. */
static int set_globals(struct engine_run *r)
{
	dTHXa(r->perl);
	struct syscall_map builtin;
	const struct syscall_map *map = ec_syscall_map(r->core.st->session, &builtin);
	AV *argv = get_av("ARGV", GV_ADD);
	HV *sc = get_hv("Perf::Trace::Context::syscall_map", GV_ADD);

	av_clear(argv);
	for (int i = 1; i < r->core.st->argc; i++)
		av_push(argv, newSVpv(r->core.st->argv[i], 0));
	sv_setpv(get_sv("0", GV_ADD), r->core.st->script);
	/* do FILE searches @INC unless the path is explicit */
	sv_setpvf(get_sv("main::__tracebox_script", GV_ADD), "%s%s",
		  r->core.st->script[0] == '/' || r->core.st->script[0] == '.' ||
		  payload_is(r->core.st->script) ? "" : "./", r->core.st->script);
	for (uint32_t i = 0; map && i < map->nr; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%u", map->ents[i].nr);
		(void)hv_store(sc, key, (I32)strlen(key), newSVpv(map->ents[i].name, 0), 0);
	}
	scmap_free(&builtin);
	perl_set_current(aTHX_ &r->core.cur);
	r->context = newSViv(PTR2IV(&r->core.cur));
	/* errsv_text's: an object's "" overload, its text kept by name */
	r->stringify = eval_pv("sub { $main::__tracebox_text = \"$_[0]\"; }", 0);
	if (r->stringify)
		SvREFCNT_inc_simple_void_NN(r->stringify);
	return 0;
}

static int run_script(struct engine_run *r, struct tb_err *err)
{
	dTHXa(r->perl);
	const char *path = r->core.st->script;
	SV *code;
	int rc;

	if (payload_is(path)) {      /* carried in the binary */
		if ((rc = guarded(r, payload_fn, &path, err)))
			return rc;
		if (!path)
			return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot read %s",
					  r->core.st->script);
		if (failed(aTHX))
			return died(r, err, NULL, r->core.st->script, "died while loading (above)");
		return 0;
	}
	code = newSVpvs("package main; my $f = $main::__tracebox_script; "
			"die \"cannot read $f: $!\\n\" unless -r $f; do $f; die $@ if $@; 1");
	rc = guarded(r, eval_fn, code, err);
	SvREFCNT_dec(code);
	if (rc)
		return rc;
	if (failed(aTHX))
		return died(r, err, NULL, r->core.st->script, "died while loading (above)");
	return 0;
}

/* ---- symbol tables: perf's define_* calls ---- */

/* main::@fn, or NULL when the script has no such sub. */
static CV *main_sub(struct engine_run *r, const char *fn)
{
	dTHXa(r->perl);
	char name[64];

	snprintf(name, sizeof(name), "main::%s", fn);
	return get_cv(name, 0);
}

static int call_define(struct engine_run *r, const char *fn, const char *event,
		       const char *field, const char *s1, UV value, int with_value)
{
	dTHXa(r->perl);
	CV *cv = main_sub(r, fn);
	struct tb_err err = { 0 };
	int rc;
	dSP;

	if (!cv)
		return 0;
	ENTER;
	SAVETMPS;
	PUSHMARK(SP);
	XPUSHs(sv_2mortal(newSVpv(event, 0)));
	XPUSHs(sv_2mortal(newSVpv(field, 0)));
	if (with_value)
		XPUSHs(sv_2mortal(newSVuv(value)));
	if (s1)
		XPUSHs(sv_2mortal(newSVpv(s1, 0)));
	PUTBACK;
	rc = call_guarded(r, (SV *)cv, G_DISCARD, &err);
	FREETMPS;
	LEAVE;
	return rc || failed(aTHX) ? -1 : 0;
}

static int define_field(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
			const char *delim)
{
	return kind == TP_SYM_FLAGS ?
		call_define(ctx, "define_flag_field", event, field, delim, 0, 0) :
		call_define(ctx, "define_symbolic_field", event, field, NULL, 0, 0);
}

static int define_value(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
			uint64_t value, const char *str)
{
	return call_define(ctx, kind == TP_SYM_FLAGS ? "define_flag_value" : "define_symbolic_value",
			   event, field, str, (UV)value, 1);
}

static const struct ec_define_ops define_ops = { define_field, define_value };

/* ---- events ---- */

static int tracepoint_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err);

static void sub_ref_free(struct engine_run *r, struct sub_ref *s)
{
	dTHXa(r->perl);

	SvREFCNT_dec(s->gv);
	SvREFCNT_dec(s->stash);
	s->gv = NULL;
	s->stash = NULL;
}

/*
 * The sub @s names now. perf looks each handler up by name for every call,
 * so a script may define, redefine, undefine or delete one as it runs
 * (eval "sub ...", *glob = sub {...}, undef &sub, delete $pkg::{sub}). The
 * glob found is held and its code slot read per call (a CV kept across
 * calls is freed by a redefinition, then called); it is looked up again
 * (some 800 instructions) only when its package's pkg_gen moved: perl
 * bumps it for every sub defined, assigned or deleted in the package,
 * and a package deleted from the symbol table loses its effective name.
 */
static CV *sub_now(struct engine_run *r, struct sub_ref *s)
{
	dTHXa(r->perl);
	const char *sep;

	if (s->stash && !HvENAME_HEK(s->stash)) {
		/* the package was deleted from the symbol table (an orphan
		 * has no effective name): what the name gives now is asked */
		sub_ref_free(r, s);
		s->looked = 0;
	}
	if (!s->stash) {
		sep = strrchr(s->name, ':');
		s->stash = sep && sep > s->name + 1 ?
			   gv_stashpvn(s->name, (U32)(sep - 1 - s->name), 0) : NULL;
		if (!s->stash)
			return NULL;      /* no package: no sub */
		SvREFCNT_inc_simple_void_NN(s->stash);
	} else if (s->looked && HvMROMETA(s->stash)->pkg_gen == s->gen) {
		return s->gv && isGV_with_GP(s->gv) ? GvCVu(s->gv) : NULL;
	}
	SvREFCNT_dec(s->gv);
	s->gv = gv_fetchpv(s->name, 0, SVt_PVCV);
	if (s->gv)
		SvREFCNT_inc_simple_void_NN(s->gv);
	s->looked = 1;
	s->gen = HvMROMETA(s->stash)->pkg_gen;
	return s->gv && isGV_with_GP(s->gv) ? GvCVu(s->gv) : NULL;
}

static struct perl_tracepoint *event_info(struct engine_run *r, const struct tp_decoder *dec,
					  struct tb_err *err)
{
	dTHXa(r->perl);
	struct perl_tracepoint *e = ec_event(&r->core, dec, err);

	if (!e || e->ec.ready)
		return e;
	e->nr_args = NR_COMMON + dec->nr;
	e->args = calloc(e->nr_args, sizeof(*e->args));
	if (!e->args) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	e->handler.name = e->ec.name;
	e->args[0] = newSVpv(e->ec.name, 0);
	for (size_t i = 1; i < e->nr_args; i++)
		e->args[i] = newSV(0);
	e->ec.ready = 1;
	return e;
}

/* Set @sv to a field's value as perf's Perl engine passes it: numbers,
 * an array ref for a fixed array, a string up to its NUL, else the bytes. */
static void set_value(pTHX_ SV *sv, const struct ec_value *v)
{
	struct ec_value el;
	AV *av;

	switch (v->kind) {
	case EC_INT:
		sv_setiv(sv, (IV)(int64_t)v->num);
		return;
	case EC_UINT:
		sv_setuv(sv, (UV)v->num);
		return;
	case EC_STRING:
		sv_setpvn(sv, (const char *)v->p, v->slen);
		return;
	case EC_BYTES:
		sv_setpvn(sv, (const char *)v->p, v->len);
		return;
	case EC_ARRAY:
		av = newAV();
		for (int i = 0; i < v->count; i++) {
			SV *item = newSV(0);

			ec_element(v, i, &el);
			set_value(aTHX_ item, &el);
			av_push(av, item);
		}
		sv_setsv(sv, sv_2mortal(newRV_noinc((SV *)av)));
		return;
	default:
		sv_setsv(sv, &PL_sv_undef);
		return;
	}
}

/* Set the reused SV of one field. */
static void set_field(pTHX_ SV *sv, const struct tp_field *f, const unsigned char *raw,
		      size_t size)
{
	struct ec_value v;

	ec_field(f, raw, size, &v);
	set_value(aTHX_ sv, &v);
}

/* perf's callchain array: per frame {ip, sym => {start, end, binding,
 * name}, dso}, sym and dso where they are known. */
static SV *callchain_ref(pTHX_ struct engine_run *r, const struct pd_event *ev)
{
	struct ec_chain c;
	struct sym_loc l;
	uint64_t ip;
	AV *av;
	int got;

	av = newAV();
	ec_chain_begin(&c, ev, ec_max_stack());
	while ((got = ec_chain_frame(&c, r->syms, ev, &ip, &l)) != 0) {
		HV *hv = newHV();

		(void)hv_stores(hv, "ip", newSVuv((UV)ip));
		if (got > 0) {
			if (l.sym) {
				HV *sym = newHV();

				(void)hv_stores(sym, "start", newSVuv((UV)l.sym_start));
				(void)hv_stores(sym, "end", newSVuv((UV)l.sym_end));
				(void)hv_stores(sym, "binding", newSVuv((UV)ec_sym_binding(&l)));
				(void)hv_stores(sym, "name", newSVpv(l.sym, 0));
				(void)hv_stores(hv, "sym", newRV_noinc((SV *)sym));
			}
			if (l.have_map)
				(void)hv_stores(hv, "dso", newSVpv(l.dso, 0));
		}
		av_push(av, newRV_noinc((SV *)hv));
	}
	return newRV_noinc((SV *)av);
}

/* process_event($event, $attr, $sample, $raw_data) for every sample, as
 * perf's perl_process_event_generic packs them: the record, the attr,
 * perf's struct perf_sample, the raw data (undef when there is none). */
static int generic_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	dTHXa(r->perl);
	unsigned char sample[EC_PERF_SAMPLE_SIZE];
	const struct pd_sample *s = ev->sample;
	CV *cv = sub_now(r, &r->process_event);
	int rc;
	dSP;

	if (!cv)
		return 0;

	ec_current_set(&r->core.cur, ev);
	ec_perf_sample(ev, sample);
	ENTER;
	SAVETMPS;
	PUSHMARK(SP);
	EXTEND(SP, 4);
	PUSHs(sv_2mortal(newSVpvn((const char *)ev->rec, ev->rec ? ev->rec_size : 0)));
	PUSHs(sv_2mortal(newSVpvn((const char *)ev->evsel->raw, 128)));
	PUSHs(sv_2mortal(newSVpvn((const char *)sample, sizeof(sample))));
	PUSHs(sv_2mortal(s->raw ? newSVpvn((const char *)s->raw, s->raw_size) : newSV(0)));
	PUTBACK;
	rc = call_guarded(r, (SV *)cv, G_DISCARD, err);
	FREETMPS;
	LEAVE;
	if (rc)
		return rc;
	if (failed(aTHX))
		return died(r, err, ev, "process_event", "died (above)");
	return 0;
}

/* engine_ops.wants: a tracepoint with neither its handler nor
 * trace_unhandled, in a script without process_event, gets nothing; asked
 * after trace_begin, so a sub it defines counts (one a handler defines
 * later for such a tracepoint is not called, where perf would call it) */
int perl_wants(struct engine_run *r, const struct pd_evsel *ev)
{
	struct perl_tracepoint *e;
	struct tb_err err = { 0 };

	if (ev->type != PD_TYPE_TRACEPOINT || !ev->dec ||
	    sub_now(r, &r->unhandled) || sub_now(r, &r->process_event))
		return 1;
	e = event_info(r, ev->dec, &err);
	return !e || sub_now(r, &e->handler);
}

int perl_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	int rc = 0;

	if (ev->evsel->type == PD_TYPE_TRACEPOINT && ev->evsel->dec && ev->sample->raw)
		rc = tracepoint_event(r, ev, err);
	if (!rc)
		rc = generic_event(r, ev, err);
	ec_current_end(&r->core.cur);
	return rc;
}

/* guarded_fn: @arg's argument SVs after the call (perl_args_release) */
static void release_fn(pTHX_ void *arg)
{
	struct perl_tracepoint *e = arg;

	perl_args_release(aTHX_ e->args, e->nr_args, e->ec.name);
}

static int tracepoint_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	dTHXa(r->perl);
	const struct pd_sample *s = ev->sample;
	struct perl_tracepoint *e;
	struct ec_common c;
	CV *cv, *handler;
	int rc, rc2;
	dSP;

	e = event_info(r, ev->evsel->dec, err);
	if (!e)
		return err->code ? err->code : TB_ERR_NOMEM;
	handler = sub_now(r, &e->handler);
	cv = handler ? handler : sub_now(r, &r->unhandled);
	if (!cv)
		return 0;
	ec_current_set(&r->core.cur, ev);
	ec_common_args(ev, &c);
	ENTER;
	SAVETMPS;
	if (!perl_holds_iv(e->args[1], SvIVX(r->context)))
		sv_setsv(e->args[1], r->context);
	sv_setiv(e->args[2], c.cpu);
	sv_setuv(e->args[3], (UV)c.secs);
	sv_setuv(e->args[4], (UV)c.nsecs);
	sv_setiv(e->args[5], c.pid);
	if (!perl_holds_str(e->args[6], c.comm, strlen(c.comm)))
		sv_setpv(e->args[6], c.comm);
	if (ev->sample->nr_callchain)
		sv_setsv(e->args[7], sv_2mortal(callchain_ref(aTHX_ r, ev)));
	else if (!perl_empty_array_ref(e->args[7]))
		sv_setsv(e->args[7], sv_2mortal(newRV_noinc((SV *)newAV())));
	for (size_t i = 0; i < e->ec.dec->nr; i++)
		set_field(aTHX_ e->args[NR_COMMON + i], &e->ec.dec->fields[i], s->raw, s->raw_size);
	PUSHMARK(SP);
	EXTEND(SP, (SSize_t)e->nr_args);
	for (size_t i = 0; i < e->nr_args; i++)
		PUSHs(e->args[i]);
	PUTBACK;
	rc = call_guarded(r, (SV *)cv, G_DISCARD, err);
	FREETMPS;
	LEAVE;
	/* the death first: a DESTROY the release runs may clear $@ */
	if (!rc && failed(aTHX))
		rc = died(r, err, ev, handler ? e->ec.name : "trace_unhandled", "died (above)");
	rc2 = perl_args_settled(aTHX_ e->args, e->nr_args, e->ec.name) ? 0 :
	      guarded(r, release_fn, e, err);
	return rc ? rc : rc2;
}

/* ---- start and stop ---- */

static int call_optional(struct engine_run *r, const char *fn, struct tb_err *err)
{
	dTHXa(r->perl);
	CV *cv = main_sub(r, fn);
	int rc;
	dSP;

	if (!cv)
		return 0;
	PUSHMARK(SP);
	if ((rc = call_guarded(r, (SV *)cv, G_DISCARD | G_NOARGS, err)))
		return rc;
	if (failed(aTHX))
		return died(r, err, NULL, fn, "died (above)");
	return 0;
}

int perl_start(struct engine_run **out, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));
	int rc;

	*out = r;
	if (!r)
		return TB_ERR_NOMEM;
	r->syms = pd_session_symbols(st->session);
	r->unhandled.name = "main::trace_unhandled";
	r->process_event.name = "main::process_event";
	if ((rc = ec_run_init(&r->core, st, "::", sizeof(struct perl_tracepoint), err)) ||
	    (rc = start_interpreter(r, err)) || (rc = set_globals(r)) || (rc = run_script(r, err)))
		return rc;
	r->loaded = 1;
	if (ec_walk_defines(st->session, &r->core.names, &define_ops, r))
		return r->exited ? exited(r, err) : died(r, err, NULL, "define_*", "a define_* callback died (above)");
	return call_optional(r, "trace_begin", err);
}

int perl_stop(struct engine_run *r, struct tb_err *err)
{
	int rc = 0;

	if (r->started) {
		dTHXa(r->perl);

		if (r->loaded && !r->exited)
			rc = call_optional(r, "trace_end", err);
		/* the script's prints went through PerlIO: a full disk or a
		 * closed stdout shows here, not in the applet's stdio; not a
		 * STDOUT the script closed itself (close(STDOUT): perf's exit 0) */
		GV *out = gv_fetchpvs("main::STDOUT", 0, SVt_PVIO);
		IO *io = out ? GvIO(out) : NULL;

		if (io && IoOFP(io) &&
		    (PerlIO_flush(PerlIO_stdout()) || PerlIO_error(PerlIO_stdout())) && !rc)
			rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
					"writing the script's output failed: %s", strerror(errno));
		for (size_t i = 0; i < r->core.evs.nr; i++) {
			struct perl_tracepoint *e = idtable_at(&r->core.evs, i);

			for (size_t a = 0; e->args && a < e->nr_args; a++)
				SvREFCNT_dec(e->args[a]);
			sub_ref_free(r, &e->handler);
		}
		sub_ref_free(r, &r->unhandled);
		sub_ref_free(r, &r->process_event);
		SvREFCNT_dec(r->context);
		SvREFCNT_dec(r->stringify);
	}
	if (r->perl) {
		/* END blocks run here; $? after them is the status, as perl's,
		 * which sets it to 0 first when the script did not exit */
		int st;

		if (!r->exited) {
			dTHXa(r->perl);
			STATUS_ALL_SUCCESS;
		}
		st = perl_destruct(r->perl);

		if (r->core.st->exit_status &&
		    (r->exited || (st && r->loaded && *r->core.st->exit_status < 0)))
			*r->core.st->exit_status = st & 0xff;
		perl_free(r->perl);
	}
	for (size_t i = 0; i < r->core.evs.nr; i++) {
		struct perl_tracepoint *e = idtable_at(&r->core.evs, i);

		free(e->args);
	}
	ec_run_free(&r->core);
	free(r->inc[0]);
	free(r->inc[1]);
	free(r);
	return rc;
}
