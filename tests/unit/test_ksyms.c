/* test_ksyms.c - ksyms_load_text / ksyms_lookup / ksyms_attach (common/symbols/ksyms.h)
 * against perf 6.1's kallsyms rules (tools/perf/util/symbol.c):
 * symbol_type__filter keeps T/W/D/B in either case; symbols__fixup_end runs
 * before symbols__fixup_duplicate; the last symbol ends one page past its
 * page. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "symbols/ksyms.h"
#include "unit.h"

#define K(off) (0xffffffff81000000ULL + (off))

/* One line per symbol, as /proc/kallsyms prints them. */
static const char kallsyms[] =
	/* type filtering: t/T/w/W/d/D/b/B kept, the rest dropped */
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t local_fn\n"
	"ffffffff81000200 W weak_fn\n"
	"ffffffff81000300 w weak_local_fn\n"
	"ffffffff81000400 D data_sym\n"
	"ffffffff81000500 d local_data\n"
	"ffffffff81000600 B bss_sym\n"
	"ffffffff81000700 b local_bss\n"
	"ffffffff81000800 r rodata_dropped\n"
	"ffffffff81000880 R RODATA_dropped\n"
	"ffffffff81000900 a abs_dropped\n"
	"ffffffff81000980 A ABS_dropped\n"
	"ffffffff81000a00 V weak_object_dropped\n"
	"ffffffff81000a80 v weak_local_object_dropped\n"
	"ffffffff81000b00 n debug_dropped\n"
	"ffffffff81000b80 N DEBUG_dropped\n"
	"ffffffff81000c00 u unique_global_dropped\n"
	"ffffffff81000c80 ? unknown_dropped\n"
	"not an address line\n"
	"ffffffff81000d00\n"
	"ffffffff81000d80 TT bad_type_dropped\n"
	"ffffffff81000f00 T after_dropped\n"
	/* duplicates at one address, each rule in both orders */
	"ffffffff81001000 t local_a\n"
	"ffffffff81001000 T global_a\n"
	"ffffffff81001100 T global_b\n"
	"ffffffff81001100 t local_b\n"
	"ffffffff81001200 W weak_a\n"
	"ffffffff81001200 T strong_a\n"
	"ffffffff81001300 T strong_b\n"
	"ffffffff81001300 W weak_b\n"
	"ffffffff81001400 T __under_c\n"
	"ffffffff81001400 T under_c\n"
	"ffffffff81001500 T under_d\n"
	"ffffffff81001500 T __under_d\n"
	"ffffffff81001600 T short\n"
	"ffffffff81001600 T shortlonger\n"
	"ffffffff81001700 T longername\n"
	"ffffffff81001700 T longer\n"
	/* this host's kallsyms, where perf 6.1 printed __x64_sys_gettid */
	"ffffffff81001800 t __do_sys_gettid\n"
	"ffffffff81001800 T __ia32_sys_gettid\n"
	"ffffffff81001800 T __x64_sys_gettid\n"
	"ffffffff81001900 T last_kernel_fn\n"
	/* modules, out of address order as kallsyms lists them */
	"ffffffffc0b00010 t bpf_prog_6deef7357e7b4530_sd_fw_egress\t[bpf]\n"
	"ffffffffc0a00000 t mod_fn\t[mymod]\n"
	"ffffffffc0a00080 T mod_fn2\t[mymod]\n";

/* Symbols kept: 9 + after_dropped, 8 duplicate pairs and one triple
 * reduced to one each, last_kernel_fn, 3 module symbols. */
#define NR_KEPT (9 + 9 + 1 + 3)

static const char *look(struct ksyms *k, uint64_t addr, uint64_t *start, const char **mod)
{
	*start = 0;
	*mod = NULL;
	return ksyms_lookup(k, addr, start, mod);
}

static void test_filter(struct ksyms *k)
{
	static const struct { uint64_t off; const char *name; } kept[] = {
		{ 0x000, "_stext" }, { 0x100, "local_fn" }, { 0x200, "weak_fn" },
		{ 0x300, "weak_local_fn" }, { 0x400, "data_sym" }, { 0x500, "local_data" },
		{ 0x600, "bss_sym" }, { 0x700, "local_bss" }, { 0xf00, "after_dropped" },
	};
	const char *mod, *name;
	uint64_t start;
	unsigned bad = 0;

	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		name = look(k, K(kept[i].off) + 8, &start, &mod);
		if (!name || strcmp(name, kept[i].name) || start != K(kept[i].off) || mod) {
			NOTE("0x%llx: got %s", (unsigned long long)K(kept[i].off) + 8, name ? name : "NULL");
			bad++;
		}
	}
	T_EQ(bad, 0, "t T w W d D b B symbols are kept and found by an address inside them");
	name = look(k, K(0x800), &start, &mod);
	T(name && !strcmp(name, "local_bss") && start == K(0x700),
	  "r R a A v V n N u ? and malformed lines are dropped: 0x..800 is still in local_bss");
	name = look(k, K(0xc80) + 0x7f, &start, &mod);
	T(name && !strcmp(name, "local_bss"), "local_bss runs up to the next kept symbol");
	name = look(k, K(0xf00), &start, &mod);
	T(name && !strcmp(name, "after_dropped") && start == K(0xf00),
	  "a symbol's own start address finds it");
	name = look(k, K(0) - 1, &start, &mod);
	T(!name, "an address below the first symbol finds nothing");
}

static void test_duplicates(struct ksyms *k)
{
	/* perf 6.1 sorts kallsyms by address (equal addresses in file
	 * order), then symbols__fixup_end gives every symbol but the last of
	 * an address the end "next start" = its own start, so length 0; then
	 * symbols__fixup_duplicate -> choose_best_symbol's first rule, "prefer
	 * a symbol with non zero length", keeps the last symbol listed at the
	 * address. The other rules (weak, global, underscores, name length)
	 * never decide for kallsyms. Checked on this host: perf script -F sym
	 * printed __x64_sys_gettid for samples in
	 *   ffffffff813828f0 t __do_sys_gettid
	 *   ffffffff813828f0 T __ia32_sys_gettid
	 *   ffffffff813828f0 T __x64_sys_gettid
	 * where the rules alone would keep __ia32_sys_gettid (global, longer). */
	static const struct { uint64_t off; const char *want, *rule; } dups[] = {
		{ 0x1000, "global_a",  "local then global: global" },
		{ 0x1100, "local_b",   "global then local: the last one (local)" },
		{ 0x1200, "strong_a",  "weak then global: global" },
		{ 0x1300, "weak_b",    "global then weak: the last one (weak)" },
		{ 0x1400, "under_c",   "__under_c then under_c: fewer underscores" },
		{ 0x1500, "__under_d", "under_d then __under_d: the last one (more underscores)" },
		{ 0x1600, "shortlonger", "short then shortlonger: longer name" },
		{ 0x1700, "longer",    "longername then longer: the last one (shorter)" },
		{ 0x1800, "__x64_sys_gettid", "t __do_sys_gettid, T __ia32_sys_gettid, T __x64_sys_gettid: "
					      "__x64_sys_gettid as perf 6.1 printed here" },
	};
	const char *mod, *name;
	uint64_t start;

	for (size_t i = 0; i < sizeof(dups) / sizeof(dups[0]); i++) {
		name = look(k, K(dups[i].off) + 0x10, &start, &mod);
		T(name && !strcmp(name, dups[i].want) && start == K(dups[i].off),
		  "duplicates at one address, %s (got %s)", dups[i].rule, name ? name : "NULL");
	}
}

static void test_modules_and_ends(struct ksyms *k)
{
	const char *mod, *name;
	uint64_t start;

	name = look(k, 0xffffffffc0a00010ULL, &start, &mod);
	T(name && !strcmp(name, "mod_fn") && mod && !strcmp(mod, "mymod") &&
	  start == 0xffffffffc0a00000ULL, "module symbol: name mod_fn, module \"mymod\" (no brackets)");
	name = look(k, 0xffffffffc0a00fffULL, &start, &mod);
	T(name && !strcmp(name, "mod_fn2") && mod && !strcmp(mod, "mymod"),
	  "mod_fn2 runs up to the next module symbol");
	name = look(k, 0xffffffffc0b00020ULL, &start, &mod);
	T(name && !strcmp(name, "bpf_prog_6deef7357e7b4530_sd_fw_egress") && mod &&
	  !strcmp(mod, "bpf"), "[bpf] symbol, listed first, sorted by address");
	name = look(k, K(0x1900) + 0x10, &start, &mod);
	T(name && !strcmp(name, "last_kernel_fn") && !mod, "kernel symbols have no module");

	/* the last symbol: end = roundup(start, 4096) + 4096, and ip == end misses */
	name = look(k, 0xffffffffc0b01fffULL, &start, &mod);
	T(name && !strcmp(name, "bpf_prog_6deef7357e7b4530_sd_fw_egress"),
	  "the last symbol (at ...c0b00010) covers up to ...c0b01fff");
	name = look(k, 0xffffffffc0b02000ULL, &start, &mod);
	T(!name, "an address past the last symbol's end (...c0b02000) finds nothing");
	name = look(k, UINT64_MAX, &start, &mod);
	T(!name, "0xffffffffffffffff finds nothing");

	/* symbols__fixup_end with is_kallsyms: the last kernel symbol before a
	 * module symbol ends at roundup(start + 4096, 4096), not at the
	 * module: "do not fill this gap and do not assign it to the kernel dso
	 * map (kallsyms)". */
	name = look(k, K(0x1900) + 0x16ff, &start, &mod);
	T(name && !strcmp(name, "last_kernel_fn"), "last_kernel_fn covers up to its page end + 1 page");
	name = look(k, K(0x3000), &start, &mod);
	T(!name, "the gap between the kernel and the modules finds nothing (got %s)",
	  name ? name : "NULL");
}

/* Each case runs in a child: exit 0 when the answers are right, 1 when
 * not; a sanitizer report also ends the child non-zero. */
static int empty_first_load(void *unused)
{
	struct ksyms *k = ksyms_attach(NULL, NULL, NULL);
	uint64_t start;
	const char *mod;
	int ok = ksyms_load_text(k, "", 0) == 0 && !look(k, K(0), &start, &mod);

	ksyms_free(k);
	return !ok;
}

static int only_dropped_first_load(void *unused)
{
	struct ksyms *k = ksyms_attach(NULL, NULL, NULL);
	uint64_t start;
	const char *mod;
	int ok = ksyms_load_text(k, "ffffffff81000000 r only_rodata\n", 31) == 0 &&
		 !look(k, K(0), &start, &mod);

	ksyms_free(k);
	return !ok;
}

static int reload_with_nothing_kept(void *unused)
{
	struct ksyms *k = ksyms_attach(NULL, NULL, NULL);
	uint64_t start;
	const char *mod;
	int n1 = ksyms_load_text(k, "ffffffff81000000 T one\nffffffff81000100 T two\n", 46);
	int n2 = ksyms_load_text(k, "ffffffff81000000 r only_rodata\n", 31);
	/* compare the pointer only: stale entries would point into freed text */
	const char *name = look(k, K(0), &start, &mod);

	if (n1 != 2 || n2 != 0 || name)
		NOTE("reload: first load %d, second load %d (want 2, 0), lookup %s", n1, n2,
		     name ? "found a stale entry" : "NULL");
	ksyms_free(k);
	return !(n1 == 2 && n2 == 0 && !name);
}

static void test_reload_and_empty(void)
{
	struct ksyms *k = ksyms_attach(NULL, NULL, NULL);
	const char *mod, *name;
	uint64_t start;
	int n;

	T_EQ(in_child(empty_first_load, NULL), 0,
	     "empty text: 0 symbols, nothing found, no sanitizer report");
	T_EQ(in_child(only_dropped_first_load, NULL), 0,
	     "text with no kept symbol: 0 symbols, nothing found, no sanitizer report");
	T_EQ(in_child(reload_with_nothing_kept, NULL), 0,
	     "a reload that keeps nothing returns 0 and finds nothing");
	n = ksyms_load_text(k, "ffffffff81000000 T one\nffffffff81000100 T two\n", 46);
	T_EQ(n, 2, "two symbols");
	n = ksyms_load_text(k, "ffffffff81000000 T uno\n", 23);
	name = look(k, K(0x100), &start, &mod);
	T(n == 1 && name && !strcmp(name, "uno"), "a second load replaces the first table");
	n = ksyms_load_text(k, "ffffffff81000000 T no_newline", 29);
	name = look(k, K(0), &start, &mod);
	T(n == 1 && name && !strcmp(name, "no_newline"), "a last line without a newline is read");
	ksyms_free(k);
	ksyms_free(NULL);
}

/* An existing but empty kallsyms (as a restricted or odd /proc may give). */
static int attach_empty_file(void *unused)
{
	struct tep_handle *tep = tep_alloc();
	struct ksyms *k = ksyms_attach(tep, "/dev/null", NULL);
	int ok = tep_find_function(tep, K(0)) == NULL;

	tep_free(tep);
	ksyms_free(k);
	return !ok;
}

/* ksyms_attach: the tep resolver loads the file on first use, behind the gate. */
static void test_attach(void)
{
	char path[] = "/tmp/tracebox-ksyms.XXXXXX";
	int fd = mkstemp(path);
	struct tep_handle *tep = tep_alloc();
	unsigned long long fstart = 0;
	unsigned long fsize = 0;
	const char *fname = NULL;
	uint64_t gate = 0;
	struct ksyms *k;

	if (fd < 0 || write(fd, kallsyms, sizeof(kallsyms) - 1) != (ssize_t)sizeof(kallsyms) - 1) {
		T(0, "temp kallsyms file");
		return;
	}
	close(fd);
	k = ksyms_attach(tep, path, &gate);
	T(k != NULL, "ksyms_attach on a tep");
	T(tep_find_function(tep, K(0x100) + 4) == NULL, "gate 0: nothing resolves");
	gate = 1;
	T_STR(tep_find_function(tep, K(0x100) + 4), "local_fn", "gate 1: the file loads, local_fn");
	T_EQ(tep_find_function_address(tep, K(0x100) + 4), K(0x100), "...starting at 0x..100");
	T(tep_find_function_info(tep, 0xffffffffc0a00004ULL, &fname, &fstart, &fsize) &&
	  fname && !strcmp(fname, "mod_fn") && fstart == 0xffffffffc0a00000ULL,
	  "module symbol through the resolver");
	unlink(path);
	T_STR(tep_find_function(tep, K(0x200) + 4), "weak_fn", "loaded once: works after the file is gone");
	tep_free(tep);
	ksyms_free(k);

	k = ksyms_attach(NULL, "/nonexistent/kallsyms", NULL);
	tep = tep_alloc();
	ksyms_free(k);
	k = ksyms_attach(tep, "/nonexistent/kallsyms", NULL);
	T(tep_find_function(tep, K(0)) == NULL, "an unreadable file resolves nothing, no crash");
	tep_free(tep);
	ksyms_free(k);
	T_EQ(in_child(attach_empty_file, NULL), 0,
	     "an empty kallsyms file (/dev/null) resolves nothing, no sanitizer report");
}

int main(void)
{
	struct ksyms *k = ksyms_attach(NULL, NULL, NULL);
	int n;

	n = ksyms_load_text(k, kallsyms, sizeof(kallsyms) - 1);
	T_EQ(n, NR_KEPT, "ksyms_load_text keeps %d symbols", NR_KEPT);
	test_filter(k);
	test_duplicates(k);
	test_modules_and_ends(k);
	ksyms_free(k);
	test_reload_and_empty();
	test_attach();
	return done();
}
