/* report_extra.c - the sample fields only some events fill (addr, data_src,
 * weight, ins_lat, iregs/uregs, brstack*, bpf-output, phys_addr, page sizes),
 * printed as perf script 6.1 prints them (builtin-script.c process_event). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perfdata/pd_sample_text.h"
#include "perfdata/pd_session.h"
#include "report/report_extra.h"
#include "report/report_mem.h"
#include "report/report_out.h"
#include "report/report_resolve.h"
#include "symbols/symbols.h"

#define PERF_COUNT_SW_PAGE_FAULTS     2
#define PERF_COUNT_SW_PAGE_FAULTS_MIN 5
#define PERF_COUNT_SW_PAGE_FAULTS_MAJ 6
#define PERF_COUNT_SW_BPF_OUTPUT      10

/* sample_addr_correlates_sym: page faults' addr is a code or data address */
static int addr_has_sym(const struct pd_evsel *e)
{
	return e->type == PD_TYPE_SOFTWARE && (e->config == PERF_COUNT_SW_PAGE_FAULTS ||
		e->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		e->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/* thread__find_map_fb: the sample's cpumode first, then the one the
 * address implies, if that is the other space */
static void resolve_fb(struct report_print *p, const struct pd_event *ev, uint64_t addr,
		       struct rp_loc *l)
{
	uint16_t mode = ev->misc & 7, implied = sym_addr_cpumode(addr);

	rp_resolve(p, ev->sample->pid, mode, addr, l);
	if (!l->have_map && (mode == 1 || mode == 2) && implied != mode)
		rp_resolve(p, ev->sample->pid, implied, addr, l);
}

static void print_addr(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	struct rp_loc l;

	ro_unum(p, ev->sample->addr, 16, 16, ' ');
	if (!addr_has_sym(ev->evsel))
		return;
	resolve_fb(p, ev, ev->sample->addr, &l);
	if (f & RF_SYM) {
		ro_ch(p, ' ');
		ro_sym(p, &l, f & RF_SYMOFFSET);
	}
	if (f & RF_DSO) {
		ro_mem(p, " (", 2);
		ro_str(p, l.dso);
		ro_ch(p, ')');
	}
}

void report_print_fields_mid(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;

	if (f & RF_ADDR)
		print_addr(p, ev, f);
	if (f & RF_DATA_SRC)
		report_print_data_src(p, smp->data_src);
	if (f & RF_WEIGHT)
		ro_unum(p, smp->weight, 10, 16, ' ');
	if (f & RF_INS_LAT)
		ro_unum(p, smp->ins_lat, 10, 16, ' ');
}

static void print_regs(struct report_print *p, uint64_t abi, uint64_t mask,
		       const unsigned char *regs)
{
	unsigned i = 0;

	if (!abi || !regs)
		return;
	ro_mem(p, " ABI:", 5);
	ro_unum(p, abi, 10, 0, ' ');
	ro_ch(p, ' ');
	for (unsigned r = 0; r < 64; r++) {
		if (!(mask >> r & 1))
			continue;
		ro_right(p, pd_reg_name(r), 5);
		ro_mem(p, ":0x", 3);
		ro_unum(p, pd_u64(regs + 8 * i++), 16, 0, ' ');
		ro_ch(p, ' ');
	}
}

const char *report_branch_type(uint64_t flags)
{
	static const char *const names[16] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
		"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
	};
	static const char *const new_names[8] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3",
		"ARCH_4", "ARCH_5",
	};
	unsigned type = (unsigned)(flags >> 20 & 15), new_type = (unsigned)(flags >> 26 & 15);

	if (type == 0)
		return "";
	if (type == 15)
		return new_type < 8 ? new_names[new_type] : "(null)";
	return names[type];
}

/* "/M/X/A/<cycles>/<type> " (print_bstack_flags) */
static void put_bflags(struct report_print *p, uint64_t fl)
{
	int mispred = fl & 1, predicted = fl >> 1 & 1;

	ro_ch(p, '/');
	ro_ch(p, !(mispred || predicted) ? '-' : predicted ? 'P' : 'M');
	ro_ch(p, '/');
	ro_ch(p, fl >> 2 & 1 ? 'X' : '-');
	ro_ch(p, '/');
	ro_ch(p, fl >> 3 & 1 ? 'A' : '-');
	ro_ch(p, '/');
	ro_unum(p, fl >> 4 & 0xffff, 10, 0, ' ');
	ro_ch(p, '/');
	ro_str(p, report_branch_type(fl));
	ro_ch(p, ' ');
}

static void put_bdso(struct report_print *p, const struct rp_loc *l)
{
	ro_ch(p, '(');
	ro_str(p, l->dso);
	ro_ch(p, ')');
}

enum { BR_ADDR, BR_SYM, BR_OFF };

static void print_brstack(struct report_print *p, const struct pd_event *ev, uint64_t f,
			  int how)
{
	const struct pd_sample *smp = ev->sample;

	for (uint64_t i = 0; i < smp->nr_branches; i++) {
		const unsigned char *b = smp->branches + 24 * i;
		uint64_t from = pd_u64(b), to = pd_u64(b + 8);
		struct rp_loc lf, lt;
		int dso = !!(f & RF_DSO);

		if (how != BR_ADDR || dso) {
			p->map_only = how != BR_SYM;   /* thread__find_map_fb loads nothing */
			resolve_fb(p, ev, from, &lf);
			resolve_fb(p, ev, to, &lt);
			p->map_only = 0;
		}
		if (how == BR_SYM) {
			ro_sym(p, &lf, 1);
			if (dso)
				put_bdso(p, &lf);
			ro_ch(p, '/');
			ro_sym(p, &lt, 1);
			if (dso)
				put_bdso(p, &lt);
		} else {
			if (how == BR_OFF) {
				if (lf.have_map && !rp_loaded(p, lf.dso))
					from = lf.map_ip;
				if (lt.have_map && !rp_loaded(p, lt.dso))
					to = lt.map_ip;
			}
			ro_mem(p, " 0x", 3);
			ro_unum(p, from, 16, 0, ' ');
			if (dso)
				put_bdso(p, &lf);
			ro_mem(p, "/0x", 3);
			ro_unum(p, to, 16, 0, ' ');
			if (dso)
				put_bdso(p, &lt);
		}
		put_bflags(p, pd_u64(b + 16));
	}
}

/* perf's isprint (tools/include ctype, the kernel's table): Latin-1 letters
 * and signs count as printable */
static int k_isprint(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c >= 0xa0;
}

/* binary__fprintf with perf script's BPF output printer, 8 bytes a line */
static void print_bpf_output(struct report_print *p, const unsigned char *d, uint32_t len)
{
	int hit_nul = 0, printable = 1;
	unsigned line = 0;

	ro_ch(p, '\n');
	for (uint32_t i = 0; i < len; i++) {
		if ((i & 7) == 0) {
			ro_right(p, line ? "           " : "BPF output:", 17);
			ro_printf(p, " %04x:", i);
		}
		ro_printf(p, " %02x", d[i]);
		if ((i & 7) == 7 || i == len - 1) {
			for (uint32_t j = 0; j < 7 - (i & 7); j++)
				ro_mem(p, "   ", 3);
			ro_mem(p, "  ", 2);
			for (uint32_t j = i & ~7u; j <= i; j++) {
				unsigned char ch = d[j];

				if (hit_nul && ch)
					printable = 0;
				if (!k_isprint(ch)) {
					ro_ch(p, '.');
					if (!printable)
						continue;
					if (ch == 0)
						hit_nul = 1;
					else
						printable = 0;
				} else {
					ro_ch(p, (char)ch);
				}
			}
			for (uint32_t j = 0; j < 7 - (i & 7); j++)
				ro_ch(p, ' ');
			ro_ch(p, '\n');
			line++;
		}
	}
	if (printable && hit_nul) {
		ro_right(p, "BPF string:", 17);
		ro_mem(p, " \"", 2);
		ro_mem(p, (const char *)d, strnlen((const char *)d, len));
		ro_mem(p, "\"\n", 2);
	}
}

const char *report_page_size_name(char *buf, size_t size, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n) {
		snprintf(buf, size, "N/A");
		return buf;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%llu%c", (unsigned long long)n, unit[i]);
	return buf;
}

static void put_page_size(struct report_print *p, uint64_t n)
{
	char buf[32];

	ro_ch(p, ' ');
	ro_str(p, report_page_size_name(buf, sizeof(buf), n));
}

/* perf_sample__fprintf_insn: the instruction at the ip (its length, then
 * its bytes), as script_fetch_insn finds it */
static void print_insn(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	struct sym_machine *m = pd_session_symbols(p->session);
	unsigned char code[16];
	size_t len = 0;

	if (m)
		len = sym_machine_fetch_insn(m, ev->sample->pid, ev->misc & 7, ev->sample->ip, code);
	if (f & RF_INSNLEN)
		ro_printf(p, " ilen: %d", (int)len);
	if ((f & RF_INSN) && len) {
		ro_mem(p, " insn:", 6);
		for (size_t i = 0; i < len; i++)
			ro_printf(p, " %02x", code[i]);
	}
}

void report_print_fields_tail(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = ev->evsel;

	if (f & RF_IREGS)
		print_regs(p, smp->intr_regs_abi, smp->intr_regs_mask, smp->intr_regs);
	if (f & RF_UREGS)
		print_regs(p, smp->user_regs_abi, smp->user_regs_mask, smp->user_regs);
	if (smp->branches && smp->nr_branches) {
		if ((f & RF_BRSTACKOFF) && !(f & (RF_BRSTACK | RF_BRSTACKSYM))) {
			struct rp_loc l;     /* perf resolved the sample's ip first */

			rp_resolve(p, smp->pid, ev->misc & 7, smp->ip, &l);
		}
		if (f & RF_BRSTACK)
			print_brstack(p, ev, f, BR_ADDR);
		else if (f & RF_BRSTACKSYM)
			print_brstack(p, ev, f, BR_SYM);
		else if (f & RF_BRSTACKOFF)
			print_brstack(p, ev, f, BR_OFF);
	}
	if ((f & RF_BPF_OUTPUT) && e->type == PD_TYPE_SOFTWARE &&
	    e->config == PERF_COUNT_SW_BPF_OUTPUT)
		print_bpf_output(p, smp->raw, smp->raw ? smp->raw_size : 0);
	if (f & (RF_INSN | RF_INSNLEN))
		print_insn(p, ev, f);
	if (f & RF_PHYS_ADDR)
		ro_unum(p, smp->phys_addr, 16, 16, ' ');
	if (f & RF_DATA_PAGE_SIZE)
		put_page_size(p, smp->data_page_size);
	if (f & RF_CODE_PAGE_SIZE)
		put_page_size(p, smp->code_page_size);
}
