/* ec_sample.h - what perf's script engines hand a script about one sample
 * beyond its tracepoint fields: symbols of its ip, addr, callchain and branch
 * stack, perf's register and data-source strings, and the bytes of perf's
 * in-memory struct perf_sample. Language-independent, no interpreter headers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EC_SAMPLE_H
#define EC_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/pd_session.h"
#include "symbols/symbols.h"

#define EC_CPUMODE_KERNEL 1
#define EC_CPUMODE_USER   2
#define EC_CPUMODE_HV     3

/** ec_cpumode - perf's sample->cpumode: the record's header.misc & 7 */
uint16_t ec_cpumode(const struct pd_event *ev);

/**
 * ec_resolve - @addr in the address space of @ev's process, as perf's
 * thread__find_symbol finds it with @cpumode; @fallback: as
 * thread__find_map_fb, which retries with the cpumode the address itself
 * has (kernel half or user half). @m may be NULL (no symbols: "[unknown]").
 * Returns 0 or TB_ERR_NOMEM.
 */
int ec_resolve(struct sym_machine *m, const struct pd_event *ev, uint16_t cpumode,
	       uint64_t addr, int fallback, struct sym_loc *out);

/* Walking a callchain as perf 6.1's thread__resolve_callchain_sample does
 * (callee order): markers set the cpumode of the entries after them
 * (starting as user), an unknown marker discards the chain, at most
 * @max_stack entries. */
struct ec_chain {
	const struct pd_sample *s;
	uint64_t i;
	uint16_t cpumode;
	int max_stack, nr;
	/* ec_chain_frame: the inline frames of the last entry still to give */
	struct sym_inline inl[16];
	size_t nr_inl, next_inl;
	struct sym_loc base;
	uint64_t base_ip;
	int unwound;              /* the user entries came from unwinding dumps */
};

/** ec_chain_begin - walk @ev's callchain: at most @max_stack entries */
void ec_chain_begin(struct ec_chain *c, const struct pd_event *ev, int max_stack);
/** ec_chain_next - the next entry: 1 with *@ip and *@cpumode set, 0 at the end */
int ec_chain_next(struct ec_chain *c, uint64_t *ip, uint16_t *cpumode);
/**
 * ec_chain_frame - ec_chain_next with each entry resolved in @ev's process;
 * for the user frames of an unwound (--call-graph dwarf) stack, the
 * functions inlined at each given first, an entry each with the same ip,
 * the inline function's name as its symbol (perf 6.1's unwind_entry and
 * append_inlines; none under --no-inline). 1 with *@ip and *@l set, 0 at
 * the end, TB_ERR_NOMEM.
 */
int ec_chain_frame(struct ec_chain *c, struct sym_machine *m, const struct pd_event *ev,
		   uint64_t *ip, struct sym_loc *l);
/** ec_max_stack - perf script's limit for scripts: kernel.perf_event_max_stack (127) */
int ec_max_stack(void);

/** ec_sym_binding - the ELF binding perf reports for @l's symbol (STB_*) */
int ec_sym_binding(const struct sym_loc *l);
/** ec_map_end - the end of @l's map (perf's map->end) */
uint64_t ec_map_end(const struct sym_loc *l);
/** ec_build_id_hex - the build-id of @l's dso in hex ("" when it has none) */
void ec_build_id_hex(const struct sym_loc *l, char *buf, size_t size);

/** ec_addr_correlates_sym - perf's sample_addr_correlates_sym for @e's
 * attr (page faults, BTS) with PERF_SAMPLE_ADDR set: addr gets a symbol too */
int ec_addr_correlates_sym(const struct pd_evsel *e);

/* One branch stack entry, decoded. */
struct ec_branch {
	uint64_t from, to;
	int mispred, predicted, in_tx, abort;
	uint64_t cycles;
};
/** ec_branch - entry @i (< s->nr_branches) of @s's branch stack */
void ec_branch(const struct pd_sample *s, uint64_t i, struct ec_branch *b);
/** ec_symoff - perf's "sym+0xoff" or "[unknown]" (brstacksym) into @buf */
void ec_symoff(const struct sym_loc *l, char *buf, size_t size);

/** ec_regs - perf's iregs/uregs text "   AX:0x... " for @s's interrupt
 * (@intr) or user registers into @buf; "" when the sample has none */
void ec_regs(const struct pd_evsel *e, const struct pd_sample *s, int intr, char *buf,
	     size_t size);
/** ec_data_src - the sample's data_src as perf holds it (PERF_MEM_DATA_SRC_NONE
 * when the sample has none) */
uint64_t ec_data_src(const struct pd_evsel *e, const struct pd_sample *s);

/* perf 6.1's struct perf_sample on x86_64 (util/event.h), byte for byte. */
#define EC_PERF_SAMPLE_SIZE 1368
/** ec_perf_sample - @ev's sample as the bytes of perf's struct perf_sample;
 * its pointer members point at our copies of the same data (see README) */
void ec_perf_sample(const struct pd_event *ev, unsigned char out[EC_PERF_SAMPLE_SIZE]);

#endif
