/* symbols.h - addresses to symbols and DSOs, found where perf 6.1 finds them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYMBOLS_H
#define SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A machine is perf's host machine: the kernel (from kallsyms or a
 * vmlinux) and, per pid, the maps the recording's MMAP/MMAP2 records made,
 * each of a DSO whose ELF symbols are read once, on the first address that
 * needs them. User DSOs are checked against the recording's build-ids and
 * looked up in perf's build-id cache when they moved or changed.
 * Nothing here prints: warnings are collected (sym_machine_next_warning).
 */

struct sym_opts {
	const char *symfs;        /* --symfs DIR: prefix for every DSO path, or NULL */
	const char *kallsyms;     /* --kallsyms FILE, or NULL: /proc/kallsyms, then the build-id cache */
	const char *vmlinux;      /* -k VMLINUX, or NULL */
	const char *buildid_dir;  /* NULL: $HOME/.debug (perf's build-id cache) */
	int no_demangle;          /* perf script --no-demangle */
	int verbose;              /* -v: perf's debug lines too (build ids received, the
				   kernel symbols' source), queued with the warnings */
	int prefetch_kernel;      /* the kernel's symbols will be wanted: read them on a
				   second thread from the kernel's MMAP on */
	int one_thread;           /* one thread to read with (--threads 1, one CPU): the
				   DSOs' symbols on no thread of their own */
	int full_source_path;     /* --full-source-path: srclines name the whole file */
	int no_inline;            /* --no-inline: sym_machine_inlines gives none */
	const char *arch;         /* the recording's arch ("" unknown; NULL: this
				   machine's, a pipe's), for sym_machine_fetch_insn;
				   must outlive the machine */
};

struct sym_machine;

/** sym_machine_new - an empty machine; NULL on ENOMEM. @o is copied. */
struct sym_machine *sym_machine_new(const struct sym_opts *o);
void sym_machine_free(struct sym_machine *m);
/** sym_machine_set_prefetch - sym_opts.prefetch_kernel, before the records come */
void sym_machine_set_prefetch(struct sym_machine *m, int on);
/** sym_machine_read_ahead - with prefetch_kernel, start reading the kernel's
 * symbols and those of the build-id list's DSOs now, on threads of their
 * own (else that starts at the first MMAP); @m may be NULL */
void sym_machine_read_ahead(struct sym_machine *m);

/* one MMAP or MMAP2 record, decoded */
struct sym_mmap {
	int32_t pid, tid;
	uint16_t misc;          /* header.misc: cpumode bits, MMAP_DATA, MMAP_BUILD_ID */
	uint64_t start, len, pgoff;
	uint32_t prot, flags;   /* MMAP2 only, else 0 */
	const unsigned char *build_id; size_t build_id_len;  /* MMAP2 with MMAP_BUILD_ID */
	const char *filename;
};

/* side band, fed in delivery (time) order by the session */
int sym_machine_mmap(struct sym_machine *m, const struct sym_mmap *mm);  /* 0 or TB_ERR_NOMEM */
/* @clone_maps: 0 for a FORK perf record synthesized for a running process
 * (PERF_RECORD_MISC_FORK_EXEC): its own MMAPs follow, as in perf's
 * machine__process_fork_event */
int sym_machine_fork(struct sym_machine *m, int32_t pid, int32_t ppid, int32_t tid, int32_t ptid,
		     int clone_maps);
int sym_machine_exit(struct sym_machine *m, int32_t pid, int32_t tid);
/** sym_machine_ksymbol - a KSYMBOL record: @name's JIT code (a BPF program,
 * a trampoline) at [@addr, @addr + @len) from now on, or no more when
 * @unregister; 0 or TB_ERR_NOMEM */
int sym_machine_ksymbol(struct sym_machine *m, uint64_t addr, uint32_t len, int unregister,
			const char *name);
/** sym_machine_buildid - one entry of the HEADER_BUILD_ID feature section */
int sym_machine_buildid(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			const char *filename, const unsigned char *id, size_t id_len);

struct sym_loc {
	const char *sym;        /* NULL when unknown (perf prints "[unknown]") */
	uint64_t symoff;        /* addr - symbol start */
	uint64_t sym_start, sym_end;
	const char *dso;        /* as perf prints it: "[kernel.kallsyms]",
				   "/usr/lib/x86_64-linux-gnu/libc.so.6", "[vdso]",
				   "[unknown]" (never NULL) */
	const char *dso_short;  /* basename, for perf's dso short names */
	uint64_t map_ip;        /* addr as an offset in the dso (perf's map->map_ip) */
	int have_map;
	int is_kernel;          /* the dso is the kernel or a module: perf's callchain
				   lines print the address itself, else map_ip */
	uint64_t map_start;     /* the map's start (perf's symoff rule past a symbol's end) */
	/* what perf_sample_dict also says (engines/ec_sample.c) */
	uint64_t map_end;       /* the map's end (perf's map->end) */
	int binding;            /* the symbol's ELF binding: STB_LOCAL 0, GLOBAL 1, WEAK 2 */
	const unsigned char *build_id;  /* the dso's build-id, NULL when unknown */
	size_t build_id_len;
};

/*
 * sym_addr_cpumode - perf's machine__addr_cpumode for a 64-bit address
 * space: the cpumode @addr implies (the kernel's from 2^63 up, perf's rule
 * on x86_64), where thread__find_map_fb looks again when the sample's
 * cpumode found no map
 */
static inline uint16_t sym_addr_cpumode(uint64_t addr)
{
	return addr >> 63 ? 1 : 2;       /* PERF_RECORD_MISC_KERNEL : _USER */
}

/*
 * sym_machine_resolve - the symbol and DSO of @addr in @pid's address space
 * @cpumode: PERF_RECORD_MISC_KERNEL(1) / USER(2) / HYPERVISOR(3) / GUEST_*
 * @addr: a sample ip or a callchain entry (not a PERF_CONTEXT_* marker)
 * Fills @out (always) and returns 0, or TB_ERR_NOMEM. Strings stay valid
 * until the machine is freed.
 */
int sym_machine_resolve(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			uint64_t addr, struct sym_loc *out);

/**
 * sym_machine_read_code - up to @n bytes of the code at @addr, read from
 * its DSO's file (the build-id cache's copy first, as perf's
 * thread__memcpy reads it); none for the kernel
 * @is64: set to whether the file is 64-bit ELF (1 when it is not ELF)
 * Returns the bytes read, or 0.
 */
size_t sym_machine_read_code(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			     uint64_t addr, unsigned char *buf, size_t n, int *is64);

/**
 * sym_machine_srcline - perf 6.1's map__srcline for @addr (a sample ip or
 * callchain entry, resolved to @l): "FILE:LINE" from the DSO's DWARF (the
 * file's basename unless sym_opts.full_source_path), else perf's stand-in
 * "DSO[ADDR]" outside a known symbol (the kernel's addresses too); NULL for
 * none (no map, or an unknown line inside a symbol, which perf leaves out).
 * Valid until the next call.
 */
const char *sym_machine_srcline(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				uint64_t addr, const struct sym_loc *l);

/**
 * sym_machine_srcfile - perf's get_srcline_split: the whole name of the
 * source file of @addr's line (the innermost, as the DWARF says) and the
 * line in *@line; NULL when unknown. Valid until the next call.
 */
const char *sym_machine_srcfile(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				uint64_t addr, unsigned *line);

/**
 * sym_machine_source_line - line @line of the source file @path (a regular
 * file of at most 64 MB, kept among the last 32 read): its text without
 * the newline, *@len bytes; NULL when there is no such file or line.
 * Valid until the 32nd other file is read.
 */
const char *sym_machine_source_line(struct sym_machine *m, const char *path, unsigned line,
				    size_t *len);

/* one frame of an address's inline chain (perf's inline_list) */
struct sym_inline {
	const char *name;         /* the function: @l's own symbol name for the real
				   function when the DWARF agrees, else the DWARF's
				   (demangled as symbols are), "??" when unknown */
	int inlined;              /* a name of the DWARF's: perf prints "(inlined)" in
				   place of the DSO */
	const char *srcline;      /* its own "FILE:LINE" (the call's, for a function
				   something was inlined into); "??:0": unknown */
};

/**
 * sym_machine_inlines - perf 6.1's append_inlines for a frame at @addr
 * resolved to @l (a user address with a symbol): the functions inlined
 * there, innermost first, then the one they were inlined into. Returns how
 * many (at most @max); 0: the frame prints as it is (always under
 * sym_opts.no_inline). Valid until the next call.
 */
size_t sym_machine_inlines(struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t addr,
			   const struct sym_loc *l, struct sym_inline *out, size_t max);

/* the file a user map's code comes from, for an unwinder */
struct sym_map_file {
	const void *dso;          /* the DSO's identity (as sym_machine_map_of) */
	uint64_t start, end, pgoff;
	const char *name, *short_name;   /* as sym_loc's dso, dso_short */
	char path[4096];          /* the file opened: the build-id cache's copy, else
				   the DSO's path under --symfs */
	int fd;                   /* open on it, the caller's to close; -1 */
};

/**
 * sym_machine_map_file - the map holding user address @addr of @pid and the
 * file its code is read from, opened (a regular file only), as
 * sym_machine_read_code finds it. 0, or -1 (no map, no file).
 */
int sym_machine_map_file(struct sym_machine *m, int32_t pid, uint64_t addr,
			 struct sym_map_file *out);

/**
 * sym_machine_fetch_insn - the instruction at @ip as perf's script_fetch_insn
 * finds it: on an x86 host, for a recording of its own arch (sym_opts.arch),
 * the code read from the DSO's file and measured by the kernel's decoder.
 * Returns its length (its bytes in @insn), or 0.
 */
size_t sym_machine_fetch_insn(struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t ip,
			      unsigned char insn[16]);

/**
 * sym_machine_kernel_pending - 1 while the kernel's symbols are being read
 * ahead on a CPU of their own and a kernel address looked up now would
 * wait for them; 0 once that would not wait (read, never read ahead), and
 * with one thread (sym_opts.one_thread: the read-ahead shares the CPU, so
 * not waiting now gains nothing).
 */
int sym_machine_kernel_pending(struct sym_machine *m);
/**
 * sym_machine_set_kernel_hook - @fn(@ctx) is called before a record
 * changes the kernel's maps (a kernel or module MMAP, a KSYMBOL) or its
 * build-id, and before any kernel address is looked up, so that kernel
 * addresses kept for later are looked up first, as they were met; @fn
 * clears the hook before it looks any up. NULL @fn: none.
 */
void sym_machine_set_kernel_hook(struct sym_machine *m, void (*fn)(void *ctx), void *ctx);

/**
 * sym_machine_gen - a number that changes whenever what sym_machine_resolve
 * answers for (@pid, @cpumode) may change: the process's maps (MMAP, FORK)
 * for user addresses, the kernel's map for kernel ones. Callers caching
 * resolved addresses compare it.
 */
uint32_t sym_machine_gen(struct sym_machine *m, int32_t pid, uint16_t cpumode);

/**
 * sym_machine_map_of - the cheap half of resolving user address @addr of
 * @pid: the map it lies in. Returns 1 with *@dso (the DSO's identity),
 * *@map_ip and *@map_start set, 0 when no map holds it. What
 * sym_machine_resolve answers for a user address depends on these three only.
 */
int sym_machine_map_of(struct sym_machine *m, int32_t pid, uint64_t addr, const void **dso,
		       uint64_t *map_ip, uint64_t *map_start);

/** sym_machine_next_warning - one-line warnings (missing/hostile ELF,
 * build-id mismatch), each returned once, oldest first; NULL when none.
 * The applet prints them. */
const char *sym_machine_next_warning(struct sym_machine *m);

#endif
