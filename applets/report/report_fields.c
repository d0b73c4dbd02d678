/* report_fields.c - perf script 6.1's output fields: the defaults per event
 * kind, -F [type:][+|-]field,... and the checks of the fields against the
 * recording's attrs (builtin-script.c output[], parse_output_fields,
 * evsel__check_attr, perf_session__check_output_opt). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_fields.h"
#include "xfuncs.h"

#define PERF_TYPE_SYNTH 0x80000000u
#define PERF_COUNT_SW_DUMMY 9

static const struct { const char *name; uint64_t bit; } all_fields[] = {
	{ "comm", RF_COMM }, { "tid", RF_TID }, { "pid", RF_PID }, { "time", RF_TIME },
	{ "cpu", RF_CPU }, { "event", RF_EVNAME }, { "trace", RF_TRACE }, { "ip", RF_IP },
	{ "sym", RF_SYM }, { "dso", RF_DSO }, { "addr", RF_ADDR }, { "symoff", RF_SYMOFFSET },
	{ "srcline", RF_SRCLINE }, { "period", RF_PERIOD }, { "iregs", RF_IREGS },
	{ "uregs", RF_UREGS }, { "brstack", RF_BRSTACK }, { "brstacksym", RF_BRSTACKSYM },
	{ "data_src", RF_DATA_SRC }, { "weight", RF_WEIGHT }, { "bpf-output", RF_BPF_OUTPUT },
	{ "callindent", RF_CALLINDENT }, { "insn", RF_INSN }, { "insnlen", RF_INSNLEN },
	{ "brstackinsn", RF_BRSTACKINSN }, { "brstackoff", RF_BRSTACKOFF },
	{ "synth", RF_SYNTH }, { "phys_addr", RF_PHYS_ADDR }, { "metric", RF_METRIC },
	{ "misc", RF_MISC }, { "srccode", RF_SRCCODE }, { "ipc", RF_IPC }, { "tod", RF_TOD },
	{ "data_page_size", RF_DATA_PAGE_SIZE }, { "code_page_size", RF_CODE_PAGE_SIZE },
	{ "ins_lat", RF_INS_LAT }, { "brstackinsnlen", RF_BRSTACKINSNLEN },
	{ "machine_pid", RF_MACHINE_PID }, { "vcpu", RF_VCPU },
};
#define NR_FIELDS (sizeof(all_fields) / sizeof(all_fields[0]))

static const char *field_name(uint64_t bit)
{
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (all_fields[i].bit == bit)
			return all_fields[i].name;
	return "";
}

/* perf's event_type(): the names its messages use */
static const char *type_name(int t)
{
	static const char *const n[] = { "hardware", "software", "tracepoint", "hardware-cache" };

	return t >= 0 && t < 4 ? n[t] : "unknown";
}

int rf_type_of(uint32_t attr_type)
{
	if (attr_type == PERF_TYPE_SYNTH)
		return RF_T_SYNTH;
	return attr_type < 6 ? (int)attr_type : RF_T_OTHER;
}

#define BASE (RF_COMM | RF_TID | RF_CPU | RF_TIME | RF_EVNAME)
#define IPSYM (RF_IP | RF_SYM | RF_SYMOFFSET | RF_DSO)

void rf_init(struct rf_config *c)
{
	memset(c, 0, sizeof(*c));
	c->t[RF_T_HW].fields = BASE | IPSYM | RF_PERIOD;
	c->t[RF_T_HW].invalid = RF_TRACE | RF_BPF_OUTPUT;
	c->t[RF_T_SW].fields = BASE | IPSYM | RF_PERIOD | RF_BPF_OUTPUT;
	c->t[RF_T_SW].invalid = RF_TRACE;
	c->t[RF_T_TRACE].fields = BASE | RF_TRACE;
	c->t[RF_T_HW_CACHE] = c->t[RF_T_HW];
	c->t[RF_T_RAW].fields = BASE | IPSYM | RF_PERIOD | RF_ADDR | RF_DATA_SRC | RF_WEIGHT |
				RF_PHYS_ADDR | RF_DATA_PAGE_SIZE | RF_CODE_PAGE_SIZE | RF_INS_LAT;
	c->t[RF_T_RAW].invalid = RF_TRACE | RF_BPF_OUTPUT;
	c->t[RF_T_BREAK] = c->t[RF_T_HW];
	c->t[RF_T_SYNTH].fields = BASE | IPSYM | RF_SYNTH;
	c->t[RF_T_SYNTH].invalid = RF_TRACE | RF_BPF_OUTPUT;
	c->t[RF_T_OTHER] = c->t[RF_T_HW];
}

static int user_set_any(const struct rf_config *c)
{
	for (int j = 0; j < RF_NR_TYPES; j++)
		if (c->t[j].user_set)
			return 1;
	return 0;
}

static int parse_type(const char *s)
{
	static const char *const n[] = { "hw", "sw", "trace", NULL, "raw", "break", "synth" };

	for (int t = 0; t < RF_T_OTHER; t++)
		if (n[t] && !strcmp(s, n[t]))
			return t;
	return -1;
}

/* One -F word list, applied to every type (@type -1) or to one. */
static int apply_words(struct rf_config *c, char *tok, int type)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	char *save = NULL;

	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok++ == '+' ? ADD : REMOVE;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		for (i = 0; i < NR_FIELDS; i++)
			if (!strcmp(tok, all_fields[i].name))
				break;
		if (i == NR_FIELDS && !strcmp(tok, "flags")) {
			c->print_flags = change != REMOVE;
			continue;
		}
		if (i == NR_FIELDS) {     /* perf 6.1: builtin-script.c parse_output_fields */
			perf_msg("Invalid field requested.\n");
			return -1;
		}
		uint64_t bit = all_fields[i].bit;

		if (type == -1) {
			for (int j = 0; j < RF_NR_TYPES; j++) {
				struct rf_type *t = &c->t[j];

				if (t->invalid & bit) {     /* perf 6.1: builtin-script.c parse_output_fields */
					perf_msg("'%s' not valid for %s events. Ignoring.\n",
						 all_fields[i].name, type_name(j));
					continue;
				}
				if (change == REMOVE) {
					t->fields &= ~bit;
					t->user_set_fields &= ~bit;
					t->user_unset_fields |= bit;
				} else {
					t->fields |= bit;
					t->user_set_fields |= bit;
					t->user_unset_fields &= ~bit;
				}
				t->user_set = t->wildcard_set = 1;
			}
		} else {
			struct rf_type *t = &c->t[type];

			if (t->invalid & bit) {     /* perf 6.1: builtin-script.c parse_output_fields */
				perf_msg("'%s' not valid for %s events.\n", all_fields[i].name,
					 type_name(type));
				return -1;
			}
			if (change == REMOVE)
				t->fields &= ~bit;
			else
				t->fields |= bit;
			t->user_set = t->wildcard_set = 1;
		}
	}
	return 0;
badmix:     /* perf 6.1: builtin-script.c parse_output_fields */
	perf_msg("Cannot mix +-field with overridden fields\n");
	return -1;
}

int rf_parse(struct rf_config *c, const char *arg)
{
	char *str = strdup(arg), *tok;
	int type = -1, r;

	if (!str) {
		error_msg("out of memory");
		return -1;
	}
	tok = strchr(str, ':');
	if (tok) {
		*tok++ = 0;
		type = parse_type(str);
		if (type < 0) {     /* perf 6.1: builtin-script.c parse_output_fields */
			perf_msg("Invalid event type in field string.\n");
			free(str);
			return -1;
		}
		if (c->t[type].user_set)     /* perf 6.1: builtin-script.c parse_output_fields */
			perf_msg("Overriding previous field request for %s events.\n",
				 type_name(type));
		if (!strchr(tok, '+') && !strchr(tok, '-')) {   /* +- keep the defaults */
			c->t[type].fields = 0;
			c->t[type].user_set = 1;
			c->t[type].wildcard_set = 0;
		}
	} else {
		tok = str;
		if (!*str) {     /* perf 6.1: builtin-script.c parse_output_fields */
			perf_msg("Cannot set fields to 'none' for all event types.\n");
			free(str);
			return -1;
		}
		if (!strchr(str, '+') && !strchr(str, '-')) {
			if (user_set_any(c))     /* perf 6.1: builtin-script.c parse_output_fields */
				perf_msg("Overriding previous field request for all events.\n");
			for (int j = 0; j < RF_NR_TYPES; j++) {
				c->t[j].fields = 0;
				c->t[j].user_set = c->t[j].wildcard_set = 1;
			}
		}
	}
	r = apply_words(c, tok, type);
	free(str);
	return r;
}

static int is_dummy(const struct pd_evsel *e)
{
	return e->type == PD_TYPE_SOFTWARE && e->config == PERF_COUNT_SW_DUMMY;
}

/* evsel__do_check_stype: a default field the samples lack is dropped; one
 * the user asked for (for every type) is an error */
static int check_stype(struct rf_config *c, const struct pd_evsel *e, uint64_t stype,
		       const char *msg, uint64_t field, int allow_user_set)
{
	struct rf_type *t = &c->t[rf_type_of(e->type)];

	if (e->sample_type & stype)
		return 0;
	if (t->user_set_fields & field) {
		if (allow_user_set)
			return 0;
		/* perf 6.1: builtin-script.c evsel__do_check_stype (pr_err) */
		perf_msg("Samples for '%s' event do not have %s attribute set. "
			 "Cannot print '%s' field.\n", e->name, msg, field_name(field));
		return -1;
	}
	t->fields &= ~field;
	if (c->verbose)        /* perf 6.1: builtin-script.c evsel__do_check_stype (pr_debug) */
		perf_msg("Samples for '%s' event do not have %s attribute set. "
			 "Skipping '%s' field.\n", e->name, msg, field_name(field));
	return 0;
}

static int check_attr(struct rf_config *c, struct pd_session *s, const struct pd_evsel *e)
{
	uint64_t f = c->t[rf_type_of(e->type)].fields;
	int aux = pd_session_has_feature(s, PD_FEAT_AUXTRACE);

#define F(x) (c->t[rf_type_of(e->type)].fields & (x))
	if (is_dummy(e) || pd_session_has_feature(s, PD_FEAT_STAT))
		return 0;
	(void)f;
	if (F(RF_IP) && check_stype(c, e, PD_S_IP, "IP", RF_IP, 0))
		return -1;
	if (F(RF_ADDR) && check_stype(c, e, PD_S_ADDR, "ADDR", RF_ADDR, aux))
		return -1;
	if (F(RF_DATA_SRC) && check_stype(c, e, PD_S_DATA_SRC, "DATA_SRC", RF_DATA_SRC, aux))
		return -1;
	if (F(RF_WEIGHT) && check_stype(c, e, PD_S_WEIGHT | PD_S_WEIGHT_STRUCT, "WEIGHT",
					RF_WEIGHT, aux))
		return -1;
	if (F(RF_SYM) && !(e->sample_type & (PD_S_IP | PD_S_ADDR))) {
		/* perf 6.1: builtin-script.c evsel__check_attr */
		perf_msg("Display of symbols requested but neither sample IP nor sample "
			 "address\navailable. Hence, no addresses to convert to symbols.\n");
		return -1;
	}
	if (F(RF_SYMOFFSET) && !F(RF_SYM)) {
		/* perf 6.1: builtin-script.c evsel__check_attr */
		perf_msg("Display of offsets requested but symbol is notselected.\n");
		return -1;
	}
	if (F(RF_DSO) && !(e->sample_type & (PD_S_IP | PD_S_ADDR))) {
		/* perf 6.1: builtin-script.c evsel__check_attr */
		perf_msg("Display of DSO requested but no address to convert.\n");
		return -1;
	}
	if (F(RF_SRCLINE | RF_SRCCODE) && !F(RF_IP)) {
		/* perf 6.1: builtin-script.c evsel__check_attr */
		perf_msg("Display of source line number requested but sample IP is not\n"
			 "selected. Hence, no address to lookup the source line number.\n");
		return -1;
	}
	if (F(RF_BRSTACKINSN | RF_BRSTACKINSNLEN) && !aux) {
		uint64_t any = 0;

		/* evlist__combined_branch_type & PERF_SAMPLE_BRANCH_ANY (1 << 3) */
		for (size_t i = 0; i < pd_session_nr_evsels(s); i++)
			any |= pd_session_evsel(s, i)->sattr.branch_sample_type;
		if (!(any & (1u << 3))) {
			/* perf 6.1: builtin-script.c evsel__check_attr */
			perf_msg("Display of branch stack assembler requested, but non "
				 "all-branch filter set\nHint: run 'perf record -b ...'\n");
			return -1;
		}
	}
	if (F(RF_PID | RF_TID) && check_stype(c, e, PD_S_TID, "TID", RF_TID | RF_PID, 0))
		return -1;
	if (F(RF_TIME) && check_stype(c, e, PD_S_TIME, "TIME", RF_TIME, 0))
		return -1;
	if (F(RF_CPU) && check_stype(c, e, PD_S_CPU, "CPU", RF_CPU, aux))
		return -1;
	if (F(RF_IREGS) && check_stype(c, e, PD_S_REGS_INTR, "IREGS", RF_IREGS, aux))
		return -1;
	if (F(RF_UREGS) && check_stype(c, e, PD_S_REGS_USER, "UREGS", RF_UREGS, 0))
		return -1;
	if (F(RF_PHYS_ADDR) && check_stype(c, e, PD_S_PHYS_ADDR, "PHYS_ADDR", RF_PHYS_ADDR, aux))
		return -1;
	if (F(RF_DATA_PAGE_SIZE) &&
	    check_stype(c, e, PD_S_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", RF_DATA_PAGE_SIZE, 0))
		return -1;
	if (F(RF_CODE_PAGE_SIZE) &&
	    check_stype(c, e, PD_S_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", RF_CODE_PAGE_SIZE, 0))
		return -1;
	if (F(RF_INS_LAT) &&
	    check_stype(c, e, PD_S_WEIGHT_STRUCT, "WEIGHT_STRUCT", RF_INS_LAT, 0))
		return -1;
#undef F
	return 0;
}

static const struct pd_evsel *first_of_type(struct pd_session *s, int type)
{
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		if (!is_dummy(e) && rf_type_of(e->type) == type)
			return e;
	}
	return NULL;
}

/* Pipe mode: perf checks each attr as its record arrives (process_attr),
 * the first of each type, and adds ip and sym to a type once the attrs so
 * far have stacks; its file-mode checks ran before any attr was known. */
static int check_pipe(struct rf_config *c, struct pd_session *s)
{
	uint64_t combined = 0;
	unsigned seen = 0;	/* by rf_type_of: types 0-5 and RF_T_SYNTH */

	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);
		int type = rf_type_of(e->type);
		struct rf_type *t = &c->t[type];
		unsigned bit;

		combined |= e->sample_type;
		if (e->type >= 6 && type != RF_T_SYNTH)
			continue;
		bit = 1u << type;
		if (seen & bit)		/* only the first attr of each type is checked */
			continue;
		seen |= bit;
		if (e->sample_type && check_attr(c, s, e))
			return -1;
		if (c->use_callchain && (combined & PD_S_CALLCHAIN ||
					 combined & PD_S_BRANCH_STACK ||
					 (combined & PD_S_REGS_USER && combined & PD_S_STACK_USER))) {
			if (!(t->user_unset_fields & RF_IP))
				t->fields |= RF_IP;
			if (!(t->user_unset_fields & RF_SYM))
				t->fields |= RF_SYM;
		}
	}
	return 0;
}

int rf_check(struct rf_config *c, struct pd_session *s, int no_callchain)
{
	uint64_t tod = 0;
	int pipe = pd_session_is_pipe(s);
	size_t n = pipe ? 0 : pd_session_nr_evsels(s);

	for (int j = 0; j < RF_NR_TYPES; j++) {
		const struct pd_evsel *e = pipe ? NULL : first_of_type(s, j);

		if (!e && c->t[j].user_set && !c->t[j].wildcard_set && j != RF_T_SYNTH) {
			/* perf 6.1: builtin-script.c perf_session__check_output_opt */
			perf_msg("%s events do not exist. Remove corresponding -F option "
				 "to proceed.\n", type_name(j));
			return -1;
		}
		if (e && c->t[j].fields && check_attr(c, s, e))
			return -1;
		if (e)
			tod |= c->t[j].fields & RF_TOD;
	}
	c->use_callchain = !no_callchain;
	if (c->use_callchain && n) {
		int any = 0;

		for (size_t i = 0; i < n; i++)
			any |= !!(pd_session_evsel(s, i)->sample_type & PD_S_CALLCHAIN);
		c->use_callchain = any;
	}
	if (pipe)
		return check_pipe(c, s);
	/* tracepoints show the ip and symbol only when they have stacks */
	if (c->use_callchain && !c->t[RF_T_TRACE].user_set)
		for (size_t i = 0; i < n; i++) {
			const struct pd_evsel *e = pd_session_evsel(s, i);

			if (e->type == PD_TYPE_TRACEPOINT && (e->sample_type & PD_S_CALLCHAIN)) {
				c->t[RF_T_TRACE].fields |= IPSYM;
				return 0;
			}
		}
	if (tod && !pd_session_has_feature(s, PD_FEAT_CLOCK_DATA)) {
		/* perf 6.1: builtin-script.c perf_session__check_output_opt */
		perf_msg("Can't provide 'tod' time, missing clock data. "
			 "Please record with -k/--clockid option.\n");
		return -1;
	}
	return 0;
}

void rf_unsupported_note(const struct rf_config *c)
{
	static const uint64_t need[] = { RF_BRSTACKINSN, RF_BRSTACKINSNLEN };
	static const char *const why[] = { "a disassembler", "a disassembler" };

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		int asked = 0;

		for (int j = 0; j < RF_NR_TYPES; j++)
			asked |= !!(c->t[j].fields & need[i]);
		if (asked)
			warn_msg("-F %s is not supported (it needs %s); the field is left out",
				 field_name(need[i]), why[i]);
	}
}

size_t rf_misc_letters(unsigned m, uint32_t type, char out[8])
{
	size_t n = 0;

	if ((m & 1) == 1)
		out[n++] = 'K';
	if ((m & 2) == 2)
		out[n++] = 'U';
	if ((m & 3) == 3)
		out[n++] = 'H';
	if ((m & 4) == 4)
		out[n++] = 'G';
	if ((m & 5) == 5)
		out[n++] = 'g';
	if (m & (1u << 13)) {
		if (type == PD_REC_MMAP || type == PD_REC_MMAP2)
			out[n++] = 'M';
		else if (type == PD_REC_COMM)
			out[n++] = 'E';
		else if (type == 14 || type == 15) {       /* SWITCH, SWITCH_CPU_WIDE */
			out[n++] = 'S';
			if (m & (1u << 14))
				out[n++] = 'p';
		}
	}
	return n;
}
