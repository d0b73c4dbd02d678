/* unwind.c - a sample's user stack unwound through libdwfl over the recording's maps, as perf 6.1's unwinders list it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/symbols.h"
#include "unwind/unwind.h"
#include "unwind/unwind_regs.h"

#define MISC_USER 2
#define UNW_PROCS 8              /* processes whose modules are kept */

struct unw_proc {
	int32_t pid;
	uint32_t gen;             /* sym_machine_gen of the maps it was made for */
	Dwfl *dwfl;               /* NULL: the slot is free */
	int attached;             /* dwfl_attach_state done */
	uint64_t last_use;
};

struct unw {
	struct sym_machine *m;
	const struct unw_arch *arch;
	struct unw_proc procs[UNW_PROCS];
	uint64_t clock;
	/* the sample being unwound */
	const struct unw_sample *s;
	struct unw_proc *cur;
	uint64_t sp;
	uint64_t *ips;
	size_t nr, max;
	size_t frames;            /* frames the walk gave, the sampled one too */
	uint64_t last_pc, last_sp;    /* the frame before */
};

/*
 * libdwfl's callbacks of our own: no find_elf (every module is reported
 * with its file open), and no debug file yet: the CFI is the file's
 * .eh_frame (or its .debug_frame when the file has one). The standard
 * callbacks would load libdebuginfod into a static binary.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static int no_section_address(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *secname, GElf_Word shndx,
			      const GElf_Shdr *shdr, Dwarf_Addr *addr)
{
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = no_section_address,
};

/* the thread of the sample being unwound, once */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unw *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->s->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct unw *u = arg;

	*thread_argp = u;
	return tid == u->s->tid;
}

/* a word of the stack dump; nothing outside it */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unw *u = arg;
	uint64_t size = u->s->stack_size;

	if (addr < u->sp || addr - u->sp > size || size - (addr - u->sp) < sizeof(*result))
		return false;
	memcpy(result, u->s->stack + (addr - u->sp), sizeof(*result));
	/* the dump is the board's memory: its words in the board's byte order */
	if (u->arch->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		*result = __builtin_bswap64(*result);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unw *u = arg;
	const struct unw_arch *a = u->arch;
	Dwarf_Word regs[UNW_MAX_DWARF_REGS];
	uint64_t r[UNW_MAX_DWARF_REGS], pc;

	if (unw_dwarf_regs(a, u->s->regs, u->s->regs_mask, r, &pc))
		return false;
	for (size_t i = 0; i < a->nr_dwarf; i++)
		regs[i] = r[i];
	if (!dwfl_thread_state_registers(thread, 0, a->nr_dwarf, regs))
		return false;
	if (a->pc_apart)
		dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The module of @pc reported to the process's Dwfl (once per map): the
 * file of its map, loaded at the map's start less its offset, as perf's
 * report_module. 0, or -1 when no map or file holds it. */
static int report_module(struct unw *u, uint64_t pc)
{
	Dwfl *dwfl = u->cur->dwfl;
	struct sym_map_file mf;
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);

	if (mod)
		return 0;
	if (sym_machine_map_file(u->m, u->s->pid, pc, &mf))
		return -1;
	dwfl_report_begin_add(dwfl);
	mod = dwfl_report_elf(dwfl, mf.short_name, mf.path, mf.fd, mf.start - mf.pgoff, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod) {
		close(mf.fd);
		return -1;
	}
	return 0;
}

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unw *u = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the caller's module before its CFI is looked for */
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a frame that does not move on (the pc and the stack pointer of the
	 * one before: CFI that says nothing of the caller) ends the walk */
	if (dwfl_frame_reg(state, (unsigned)u->arch->dwarf_sp, &sp))
		sp = 0;
	if (u->frames && pc == u->last_pc && sp == u->last_sp)
		return DWARF_CB_ABORT;
	u->last_pc = pc;
	u->last_sp = sp;
	if (!u->frames++)
		return DWARF_CB_OK;  /* the sampled ip, already listed */
	u->ips[u->nr++] = activation ? pc : pc - 1;
	return u->nr < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* The process's slot: kept while its maps stay, else the least used one
 * made anew. NULL on ENOMEM. */
static struct unw_proc *proc_of(struct unw *u, int32_t pid)
{
	uint32_t gen = sym_machine_gen(u->m, pid, MISC_USER);
	struct unw_proc *p = NULL;

	for (size_t i = 0; i < UNW_PROCS; i++) {
		struct unw_proc *q = &u->procs[i];

		if (q->dwfl && q->pid == pid) {
			p = q;
			break;
		}
		if (!p || !q->dwfl || (p->dwfl && q->last_use < p->last_use))
			p = q;
	}
	if (p->dwfl && (p->pid != pid || p->gen != gen)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	if (!p->dwfl) {
		if (!(p->dwfl = dwfl_begin(&offline_callbacks)))
			return NULL;
		p->pid = pid;
		p->gen = gen;
		p->attached = 0;
	}
	p->last_use = ++u->clock;
	return p;
}

struct unw *unw_new(struct sym_machine *m, const char *arch)
{
	const struct unw_arch *a = unw_arch_find(arch);
	struct unw *u;

	if (!a || !(u = calloc(1, sizeof(*u))))
		return NULL;
	u->m = m;
	u->arch = a;
	return u;
}

void unw_free(struct unw *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < UNW_PROCS; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	free(u);
}

size_t unw_stack(struct unw *u, const struct unw_sample *s, uint64_t *ips, size_t max)
{
	uint64_t pc;

	/* 64-bit registers of the recording's arch only */
	if (!max || s->regs_abi != 2 || !s->regs ||
	    unw_reg(s->regs, s->regs_mask, u->arch->perf_pc, &pc) ||
	    unw_reg(s->regs, s->regs_mask, u->arch->perf_sp, &u->sp))
		return 0;
	u->s = s;
	u->ips = ips;
	u->max = max;
	ips[0] = pc;              /* listed whatever follows, as libunwind's perf */
	u->nr = 1;
	u->frames = 0;
	if (max == 1 || !s->stack_size || !(u->cur = proc_of(u, s->pid)) ||
	    report_module(u, pc))
		return u->nr;
	if (!u->cur->attached) {
		if (!dwfl_attach_state(u->cur->dwfl, NULL, s->pid, &thread_callbacks, u))
			return u->nr;
		u->cur->attached = 1;
	}
	dwfl_getthread_frames(u->cur->dwfl, s->tid, frame_callback, u);
	return u->nr;
}
