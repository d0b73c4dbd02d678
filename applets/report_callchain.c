/* report_callchain.c - print callchains and sample ips with their symbols
 * as perf script 6.1 does (evsel_fprintf.c sample__fprintf_callchain and
 * sample__fprintf_sym, machine.c thread__resolve_callchain_sample). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "pd_format.h"
#include "pd_sample.h"
#include "report_callchain.h"
#include "symbols.h"

#define CTX_HV      ((uint64_t)-32)
#define CTX_KERNEL  ((uint64_t)-128)
#define CTX_USER    ((uint64_t)-512)
#define CTX_MAX     ((uint64_t)-4095)

#define MODE_KERNEL 1
#define MODE_USER   2
#define MODE_HV     3

void cc_opts_default(struct cc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->print = CC_IP | CC_SYM | CC_SYMOFF | CC_DSO;
	o->max_stack = CC_DEFAULT_MAX_STACK;
}

static char *put_hex(char *o, uint64_t v, int width)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (width-- > n)
		*o++ = ' ';
	while (n)
		*o++ = tmp[--n];
	return o;
}

static char *put_s(char *o, const char *s, const char *end)
{
	size_t n = strlen(s);

	if (n > (size_t)(end - o))
		n = (size_t)(end - o);
	memcpy(o, s, n);
	return o + n;
}

/* " <sym>+0x<off>" and " (<dso>)" for one resolved address */
static char *put_sym_dso(char *o, char *end, const struct sym_loc *l, uint64_t addr,
			 unsigned print)
{
	if (print & CC_SYM) {
		*o++ = ' ';
		if (l->sym) {
			o = put_s(o, l->sym, end - 24);
			if (print & CC_SYMOFF) {
				o = put_s(o, "+0x", end);
				o = put_hex(o, l->symoff, 0);
			}
		} else if (print & CC_UNKNOWN_AS_ADDR) {
			*o++ = '[';
			if (addr)
				o = put_s(o, "0x", end);
			o = put_hex(o, addr, 0);
			*o++ = ']';
		} else {
			o = put_s(o, "[unknown]", end);
		}
	}
	if (print & CC_DSO) {
		o = put_s(o, " (", end);
		o = put_s(o, l->dso, end - 2);
		*o++ = ')';
	}
	return o;
}

static void resolve(struct sym_machine *m, int32_t pid, uint16_t mode, uint64_t addr,
		    struct sym_loc *l)
{
	if (m) {
		sym_machine_resolve(m, pid, mode, addr, l);
		return;
	}
	memset(l, 0, sizeof(*l));
	l->dso = l->dso_short = "[unknown]";
}

/* perf discards the chain at a context marker it does not know
 * (the guest ones among them), if the walk gets that far */
static int chain_discarded(const struct pd_sample *smp, unsigned max_stack)
{
	unsigned n = 0;

	for (uint64_t i = 0; i < smp->nr_callchain && n < max_stack; i++) {
		uint64_t ip = pd_u64(smp->callchain + i * 8);

		if (ip < CTX_MAX)
			n++;
		else if (ip != CTX_HV && ip != CTX_KERNEL && ip != CTX_USER)
			return 1;
	}
	return 0;
}

unsigned cc_print_callchain(FILE *fp, struct sym_machine *m, const struct pd_sample *smp,
			    const struct cc_opts *o)
{
	uint16_t mode = MODE_USER;
	unsigned n = 0, printed = 0;
	char line[4096 + 256], *end = line + sizeof(line) - 8;
	char sep = (o->print & CC_ONELINE) ? ' ' : '\t';

	if (!smp->callchain || chain_discarded(smp, o->max_stack))
		return 0;
	for (uint64_t i = 0; i < smp->nr_callchain && n < o->max_stack; i++) {
		uint64_t ip = pd_u64(smp->callchain + i * 8), addr = 0;
		struct sym_loc l;
		char *p = line;

		if (ip >= CTX_MAX) {
			mode = ip == CTX_KERNEL ? MODE_KERNEL : ip == CTX_USER ? MODE_USER : MODE_HV;
			continue;
		}
		n++;
		resolve(m, smp->pid, mode, ip, &l);
		for (int k = 0; k < o->left_align && k < 256; k++)
			*p++ = ' ';
		if ((o->print & CC_ARROW) && printed)
			p = put_s(p, " <-", end);
		if (l.have_map)
			addr = l.map_ip;
		if (o->print & CC_IP) {
			*p++ = sep;
			p = put_hex(p, l.have_map && !l.is_kernel ? addr : ip, 16);
		}
		p = put_sym_dso(p, end, &l, addr, o->print);
		if (!(o->print & CC_ONELINE))
			*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), fp);
		printed++;
	}
	return printed;
}

void cc_print_ip(FILE *fp, struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t ip,
		 const struct cc_opts *o)
{
	char line[4096 + 256], *p = line, *end = line + sizeof(line) - 8;
	struct sym_loc l;

	resolve(m, pid, cpumode & 7, ip, &l);
	for (int k = 0; k < o->left_align && k < 256; k++)
		*p++ = ' ';
	if (o->print & CC_IP)
		p = put_hex(p, ip, 16);
	p = put_sym_dso(p, end, &l, l.have_map ? l.map_ip : ip, o->print);
	fwrite(line, 1, (size_t)(p - line), fp);
}
