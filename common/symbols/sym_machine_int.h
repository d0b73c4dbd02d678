/* sym_machine_int.h - the symbols machine's state, shared by sym_machine.c (process maps) and sym_kernel.c (the kernel's symbols); private to common/symbols/. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_MACHINE_INT_H
#define SYM_MACHINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "symbols/sym_debuginfod.h"
#include "symbols/sym_dso.h"
#include "symbols/symbols.h"
#include "util/strset.h"
#include "util/tb_err.h"

#define SYM_INLINE_MAX 16         /* inline frames kept per address */
#define SYM_SRCFILES 32           /* source files kept open (perf's MAXSRCCACHE) */

/* a source file mapped for its lines (sym_srccode.c) */
struct sym_srcfile {
	char *path;               /* NULL: a free slot */
	char *map;                /* NULL: could not be read (kept, not retried) */
	size_t size;
	uint64_t used;
};

struct ksyms;
struct sym_proc;

struct sym_machine {
	struct sym_opts o;
	char *symfs, *kallsyms, *vmlinux, *buildid_dir;

	struct sym_proc *procs;   /* open addressing by pid */
	size_t nr_slots, nr_procs;

	struct sym_dso **dso_hash;
	size_t dso_slots;
	struct sym_dso *dso_list; /* every dso, for freeing (via hnext chains) */

	/* the kernel: a map once the recording's MMAP of [kernel.kallsyms] came */
	int have_kmap, kloaded;
	uint64_t kstart, kend;
	char kref[64];            /* its reference symbol ("_text"), at address kref_addr */
	uint64_t kref_addr;
	uint64_t kdelta;          /* kallsyms address - recorded address (perf's kallsyms__delta) */
	unsigned char kbid[20];
	size_t kbid_len;
	int kbid_set;
	struct ksyms *ks;         /* kallsyms */
	/* kallsyms read ahead on a second thread from the kernel's MMAP on
	 * (sym_opts.prefetch_kernel), taken by kernel_load */
	pthread_t kpre_thread;
	int kpre_on, kpre_rc;
	atomic_int kpre_done;     /* the thread is through: taking it will not wait */
	/* sym_machine_set_kernel_hook: called before the kernel's maps change */
	void (*khook)(void *ctx);
	void *khook_ctx;
	struct tb_err kpre_err;   /* why the read-ahead read nothing */
	struct ksyms *kpre;
	char kpre_path[4096], kpre_ref[64];
	struct sym_dso *kvm;      /* -k VMLINUX: its ELF symbols */
	struct strset knames;     /* "[mod]" and KSYMBOL names, each kept once */
	/* the recording's module maps (kernel MMAPs other than the kernel's):
	 * perf's "[mod]" maps, their symbols from kallsyms; and KSYMBOL
	 * records' maps (ksym), of one symbol of the map's name */
	struct sym_kmap { uint64_t start, end; const char *name; int ksym; } *kmaps;
	size_t nr_kmaps;

	/* the last user map hit */
	int32_t last_pid;
	struct sym_proc *last_proc;
	size_t last_map;
	int last_valid;
	uint32_t gen_seq, kgen;   /* sym_machine_gen: the last one given, the kernel's */
	struct sym_resolved *resolved;   /* addresses already resolved (sym_machine.c) */

	char **warnings;
	size_t nr_warnings, next_warning;
	struct sym_load_ctx lctx;
	unsigned dso_seq;         /* DSOs made so far (sym_dso.seq) */
	/* the build-id list's DSOs read ahead on a thread from
	 * sym_machine_read_ahead or the first MMAP on (sym_dsopre.h) */
	struct sym_dsopre *dpre;
	int dpre_tried;
	struct sym_debuginfod di; /* DEBUGINFOD_URLS' servers (lctx.di) */
	int di_told;              /* its first problem was queued */

	/* sym_code.c: the file the last code was read from */
	char *code_path;          /* NULL: none open */
	int code_fd, code_is64;
	int code_native;          /* 0: not yet known, 1: perf's native_arch, 2: not */

	/* sym_srcline.c: the last answers' text */
	char srcline[4200];
	char inl_names[SYM_INLINE_MAX][256];
	char inl_lines[SYM_INLINE_MAX][512];
	char srcfile[4200];       /* sym_machine_srcfile's answer */
	struct sym_srcfile srcfiles[SYM_SRCFILES];
	uint64_t srcfile_clock;
};

/* what perf prints for no dso, and the kernel's dso */
extern const char sym_unknown_name[sizeof("[unknown]")];
extern const char sym_kernel_name[sizeof("[kernel.kallsyms]")];

/** sym_machine_dso_at - the DSO of user address @addr of @pid and the
 * address in it (*@map_ip); NULL when no map holds it */
struct sym_dso *sym_machine_dso_at(struct sym_machine *m, int32_t pid, uint64_t addr,
				   uint64_t *map_ip);

/** sym_machine_srcfiles_free - the source files sym_srccode.c keeps */
void sym_machine_srcfiles_free(struct sym_machine *m);

/** sym_machine_dso_load - sym_dso_load(@d, &m->lctx), or what the read-ahead
 * read for @d; its warning, if any, left in m->lctx.warning. 0 or TB_ERR_NOMEM. */
int sym_machine_dso_load(struct sym_machine *m, struct sym_dso *d);

/* sym_warn.c */
/** sym_machine_warn - queue a one-line warning (sym_machine_next_warning) */
void sym_machine_warn(struct sym_machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** sym_machine_warnings_free - drop the queue */
void sym_machine_warnings_free(struct sym_machine *m);

/* sym_kernel.c */
/** sym_kernel_mmap - the kernel's MMAP: its map, build-id and reference
 * symbol; starts the read-ahead of its symbols (prefetch_kernel). 0. */
int sym_kernel_mmap(struct sym_machine *m, const struct sym_mmap *mm);
/** sym_kernel_read_ahead - start reading the kernel's symbols before its MMAP comes */
void sym_kernel_read_ahead(struct sym_machine *m);
/** sym_kernel_resolve - sym_machine_resolve for a kernel address (loads
 * the kernel's symbols on the first one); fills @out where it knows */
void sym_kernel_resolve(struct sym_machine *m, uint64_t addr, struct sym_loc *out);
/** sym_kernel_change - the hook of sym_machine_set_kernel_hook, if any:
 * before the kernel's maps or the file its symbols come from change, and
 * before a kernel address is looked up */
void sym_kernel_change(struct sym_machine *m);
/** sym_kernel_free - what the kernel's part holds (joins the read-ahead) */
void sym_kernel_free(struct sym_machine *m);

#endif
