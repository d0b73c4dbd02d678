/* test_symbols.c - the symbols machine's rules (common/symbols/symbols.h, sym_table.h):
 * perf 6.1's symbol end and duplicate fixups, map_ip, maps cut by newer
 * maps, FORK copies, anonymous and JIT maps, kernel lookups through a
 * kallsyms file related by _text, and this test's own ELF resolved through
 * its real mapping. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "symbols/sym_table.h"
#include "symbols/symbols.h"
#include "unit.h"

#define CHECK(c, ...) unit_check(!!(c), __FILE__, __LINE__, __VA_ARGS__)

static const char *name_at(struct sym_table *t, uint64_t addr)
{
	const struct sym_entry *e = sym_table_find(t, addr);

	return e ? sym_table_name(t, e) : "(none)";
}

static void add(struct sym_table *t, uint64_t start, uint64_t len, int bind, const char *name)
{
	sym_table_add(t, start, len, bind, name, strlen(name));
}

static void test_table(void)
{
	struct sym_table t;

	sym_table_init(&t);
	add(&t, 0x1000, 0x10, STB_GLOBAL, "sized");
	add(&t, 0x1100, 0, STB_GLOBAL, "zero_size");      /* ends where the next starts */
	add(&t, 0x1200, 0x20, STB_GLOBAL, "next");
	/* duplicates at one address, perf's choose_best_symbol */
	add(&t, 0x2000, 0, STB_GLOBAL, "nosize");
	add(&t, 0x2000, 8, STB_LOCAL, "hassize");          /* a length wins */
	add(&t, 0x2100, 8, STB_WEAK, "weak");
	add(&t, 0x2100, 8, STB_LOCAL, "local");            /* not weak wins */
	add(&t, 0x2200, 8, STB_LOCAL, "loc");
	add(&t, 0x2200, 8, STB_GLOBAL, "glob");            /* global wins */
	add(&t, 0x2300, 8, STB_GLOBAL, "__under");
	add(&t, 0x2300, 8, STB_GLOBAL, "under");           /* fewer underscores win */
	add(&t, 0x2400, 8, STB_GLOBAL, "short");
	add(&t, 0x2400, 8, STB_GLOBAL, "longername");      /* the longer name wins */
	add(&t, 0x2500, 8, STB_GLOBAL, "first");
	add(&t, 0x2500, 8, STB_GLOBAL, "other");           /* a tie: the first stays */
	add(&t, 0x5010, 0, STB_GLOBAL, "last");            /* a page past its page */
	CHECK(sym_table_finish(&t) == 0, "finish");
	CHECK(!strcmp(name_at(&t, 0x1000), "sized"), "a symbol's start");
	CHECK(!strcmp(name_at(&t, 0x100f), "sized"), "its last byte");
	CHECK(!strcmp(name_at(&t, 0x1010), "(none)"), "its end is outside");
	CHECK(!strcmp(name_at(&t, 0x11ff), "zero_size"), "a zero size ends at the next symbol");
	CHECK(!strcmp(name_at(&t, 0x2000), "hassize"), "duplicates: the one with a length");
	CHECK(!strcmp(name_at(&t, 0x2100), "local"), "duplicates: not the weak one");
	CHECK(!strcmp(name_at(&t, 0x2200), "glob"), "duplicates: the global one");
	CHECK(!strcmp(name_at(&t, 0x2300), "under"), "duplicates: fewer leading underscores");
	CHECK(!strcmp(name_at(&t, 0x2400), "longername"), "duplicates: the longer name");
	CHECK(!strcmp(name_at(&t, 0x2500), "first"), "duplicates: a tie keeps the first");
	CHECK(!strcmp(name_at(&t, 0x6fff), "last") && !strcmp(name_at(&t, 0x7000), "(none)"),
	      "the last zero-size symbol ends a page past its page");
	/* a second pass (.dynsym after .symtab) keeps the first pass's choices */
	add(&t, 0x2400, 8, STB_GLOBAL, "s");
	add(&t, 0x3000, 0, STB_GLOBAL, "dyn_only");
	CHECK(sym_table_finish(&t) == 0, "second pass");
	CHECK(!strcmp(name_at(&t, 0x2400), "longername"), "second pass: the first choice stays");
	CHECK(!strcmp(name_at(&t, 0x3fff), "dyn_only"), "second pass: a new symbol ends at the next");
	sym_table_free(&t);
}

static struct sym_machine *machine(const char *kallsyms)
{
	struct sym_opts o = { .kallsyms = kallsyms, .buildid_dir = "/nonexistent/.debug" };

	return sym_machine_new(&o);
}

static void mmap_at(struct sym_machine *m, int32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff, const char *file, uint32_t prot, uint16_t misc)
{
	struct sym_mmap mm = { .pid = pid, .tid = pid, .misc = misc, .start = start, .len = len,
			       .pgoff = pgoff, .prot = prot, .flags = prot ? 2 : 0,
			       .filename = file };

	sym_machine_mmap(m, &mm);
}

static struct sym_loc at(struct sym_machine *m, int32_t pid, uint16_t mode, uint64_t addr)
{
	struct sym_loc l;

	sym_machine_resolve(m, pid, mode, addr, &l);
	return l;
}

/* sym_table_sort on many entries: by start, equal starts in the order
 * added (starts spread over every byte, many shared, some at the top) */
static void test_sort(void)
{
	struct sym_table t;
	uint64_t seed = 88172645463325252ULL;
	size_t bad = 0, n = 20000;
	uint32_t *order = calloc(n, sizeof(*order));

	sym_table_init(&t);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		uint64_t start;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		start = i % 5 == 0 ? (seed % 64) << 4 :             /* many equal, small */
			i % 7 == 0 ? UINT64_MAX - (seed % 1000) : seed >> (seed % 60);
		snprintf(name, sizeof(name), "s%zu", i);
		sym_table_add(&t, start, 1, STB_GLOBAL, name, strlen(name));
	}
	sym_table_sort(&t);
	CHECK(t.nr == n && t.sorted == n, "sorted: %zu entries kept", t.nr);
	for (size_t i = 0; i < t.nr; i++) {
		order[i] = (uint32_t)strtoul(sym_table_name(&t, &t.syms[i]) + 1, NULL, 10);
		if (i && (t.syms[i].start < t.syms[i - 1].start ||
			  (t.syms[i].start == t.syms[i - 1].start && order[i] < order[i - 1])))
			bad++;
	}
	CHECK(bad == 0, "by start, then in the order added: %zu out of place", bad);
	free(order);
	sym_table_free(&t);
}

/* borrowed names: read back from the file once the text is gone; a file
 * cut since gives NULL with EIO (trace-report prints [unknown]), not ENOMEM */
static void test_borrowed(void)
{
	static const char text[] = "\0first_name\0second_name\0";
	char path[] = "/tmp/tracebox-borrow.XXXXXX";
	int fd = mkstemp(path);
	struct sym_table t;
	const char *n1, *n2;
	unsigned src;

	if (fd < 0 || write(fd, text, sizeof(text)) != (ssize_t)sizeof(text)) {
		CHECK(0, "temp file for borrowed names");
		return;
	}
	unlink(path);
	sym_table_init(&t);
	src = sym_table_borrow(&t, text, sizeof(text), fd, 0);
	CHECK(src == 1, "a text ending in a NUL is borrowed (source %u)", src);
	CHECK(sym_table_borrow(&t, "x", 1, fd, 0) == 0, "a text not ending in a NUL is not");
	sym_table_add_ref(&t, 0x1000, 0x10, STB_GLOBAL, src, 1);
	sym_table_add_ref(&t, 0x2000, 0x10, STB_GLOBAL, src, 12);
	sym_table_finish(&t);
	CHECK(!strcmp(sym_table_name(&t, &t.syms[0]), "first_name"), "in memory while loading");
	sym_table_text_gone(&t);
	n1 = sym_table_shown(&t, sym_table_find(&t, 0x1004));
	CHECK(n1 && !strcmp(n1, "first_name"), "read back from the file: %s", n1 ? n1 : "NULL");
	CHECK(ftruncate(fd, 5) == 0, "the file cut");
	errno = 0;
	n2 = sym_table_shown(&t, sym_table_find(&t, 0x2004));
	CHECK(!n2 && errno == EIO, "a name past the cut: NULL, EIO (errno %d)", errno);
	n1 = sym_table_shown(&t, sym_table_find(&t, 0x1004));
	CHECK(n1 && !strcmp(n1, "first_name"), "a name read before stays");
	sym_table_free(&t);          /* closes fd */
	CHECK(fcntl(fd, F_GETFD) < 0, "the table closed the file when freed");
}

static void test_maps(void)
{
	struct sym_machine *m = machine(NULL);
	struct sym_loc l;

	mmap_at(m, 10, 0x10000, 0x3000, 0x500, "/nonexistent/a.so", 0, 2);
	l = at(m, 10, 2, 0x10800);
	CHECK(l.have_map && !strcmp(l.dso, "/nonexistent/a.so") && !strcmp(l.dso_short, "a.so"),
	      "an MMAP's dso");
	unit_check_u64(l.map_ip, 0x10800 - 0x10000 + 0x500, __FILE__, __LINE__,
		       "map_ip = addr - start + pgoff");
	CHECK(l.sym == NULL && !l.is_kernel, "a missing file: no symbol");
	l = at(m, 10, 2, 0x13000);
	CHECK(!l.have_map && !strcmp(l.dso, "[unknown]"), "past the map's end: [unknown]");
	l = at(m, 11, 2, 0x10800);
	CHECK(!l.have_map, "another pid has its own maps");

	/* a newer map in the middle cuts the old one in two */
	mmap_at(m, 10, 0x11000, 0x800, 0, "/nonexistent/b.so", 0, 2);
	l = at(m, 10, 2, 0x11400);
	CHECK(!strcmp(l.dso, "/nonexistent/b.so"), "the newer map wins where they overlap");
	l = at(m, 10, 2, 0x10fff);
	CHECK(!strcmp(l.dso, "/nonexistent/a.so"), "the old map before it stays");
	l = at(m, 10, 2, 0x11900);
	CHECK(!strcmp(l.dso, "/nonexistent/a.so"), "the old map after it stays");
	unit_check_u64(l.map_ip, 0x11900 - 0x10000 + 0x500, __FILE__, __LINE__,
		       "the part after keeps its file offsets");

	/* FORK: a process copies its parent's maps, a thread shares them */
	sym_machine_fork(m, 20, 10, 20, 10, 1);
	l = at(m, 20, 2, 0x11400);
	CHECK(!strcmp(l.dso, "/nonexistent/b.so"), "FORK: the child has the parent's maps");
	mmap_at(m, 10, 0x11000, 0x800, 0, "/nonexistent/c.so", 0, 2);
	l = at(m, 20, 2, 0x11400);
	CHECK(!strcmp(l.dso, "/nonexistent/b.so"), "FORK: a copy, not shared");
	/* perf record's synthesized FORK (MISC_FORK_EXEC): its own MMAPs follow */
	sym_machine_fork(m, 21, 10, 21, 10, 0);
	l = at(m, 21, 2, 0x11400);
	CHECK(!l.have_map, "a synthesized FORK: no maps copied from the parent");
	sym_machine_fork(m, 10, 10, 12, 10, 1);
	l = at(m, 10, 2, 0x11400);
	CHECK(!strcmp(l.dso, "/nonexistent/c.so"), "a new thread changes nothing");
	sym_machine_exit(m, 20, 20);
	l = at(m, 20, 2, 0x11400);
	CHECK(l.have_map, "EXIT: the maps stay (perf only marks the thread dead)");

	/* anonymous memory: executable is JIT code (perf-PID.map), else no dso */
	mmap_at(m, 30, 0x7000, 0x1000, 0x99, "//anon", 7, 2);
	l = at(m, 30, 2, 0x7010);
	CHECK(!strcmp(l.dso, "/tmp/perf-30.map"), "executable anon memory: /tmp/perf-PID.map");
	unit_check_u64(l.map_ip, 0x7010, __FILE__, __LINE__, "anon memory: map_ip is the address");
	mmap_at(m, 30, 0x9000, 0x1000, 0, "[heap]", 3, 2);
	l = at(m, 30, 2, 0x9010);
	CHECK(!strcmp(l.dso, "[heap]") && !l.sym, "non-executable [heap]");
	mmap_at(m, 30, 0xa000, 0x1000, 0x1234, "[vdso]", 5, 2);
	l = at(m, 30, 2, 0xa010);
	CHECK(!strcmp(l.dso, "[vdso]"), "[vdso]");
	unit_check_u64(l.map_ip, 0x10, __FILE__, __LINE__, "[vdso]: pgoff ignored");

	l = at(m, 10, 3, 0x10800);
	CHECK(!l.have_map, "hypervisor mode: [unknown]");
	l = at(m, 10, 1, 0xffffffff81000000ULL);
	CHECK(!l.have_map && !strcmp(l.dso, "[unknown]"), "no kernel MMAP: no kernel map");
	CHECK(sym_machine_next_warning(m) == NULL, "no warnings");
	sym_machine_free(m);
}

static void test_kernel(void)
{
	char path[] = "/tmp/test_symbols.kallsyms.XXXXXX";
	int fd = mkstemp(path);
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T startup_64\n"
		"ffffffff81000100 T second\n"
		"ffffffff81000200 t third\n"
		"ffffffff81000300 r not_a_function\n";
	struct sym_machine *m;
	struct sym_loc l;

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1)
		abort();
	close(fd);
	m = machine(path);
	/* the recording's kernel: relocated 0x200000 higher than the file's */
	mmap_at(m, -1, 0xffffffff81200000ULL, 0x7ee00000ULL, 0xffffffff81200000ULL,
		"[kernel.kallsyms]_text", 0, 1);
	l = at(m, 5, 1, 0xffffffff81200110ULL);
	CHECK(l.have_map && l.is_kernel && !strcmp(l.dso, "[kernel.kallsyms]"), "kernel map");
	CHECK(l.sym && !strcmp(l.sym, "second"), "kernel symbol, through the _text delta (%s)",
	      l.sym ? l.sym : "NULL");
	unit_check_u64(l.symoff, 0x10, __FILE__, __LINE__, "kernel symbol offset");
	l = at(m, 5, 1, 0xffffffff81200250ULL);
	CHECK(l.sym && !strcmp(l.sym, "third"), "a local text symbol");
	l = at(m, 5, 1, 0xffffffff81100000ULL);
	CHECK(!l.have_map, "below the kernel map: [unknown]");
	sym_machine_free(m);
	unlink(path);
}

static int self_function(int x) { return x + 1; }

/* this test's own ELF, through the mapping /proc/self/maps shows */
static void test_self(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct sym_machine *m = machine(NULL);
	uintptr_t fn = (uintptr_t)&self_function;
	int found = 0;

	if (n <= 0 || !f)
		abort();
	exe[n] = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &pos) < 4 ||
		    !pos)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (strcmp(line + pos, exe))
			continue;
		mmap_at(m, 40, lo, hi - lo, off, exe, perms[2] == 'x' ? 5 : 1, 2);
		found = 1;
	}
	fclose(f);
	CHECK(found, "this test's mappings");
	{
		struct sym_loc l = at(m, 40, 2, fn + 3);

		CHECK(l.sym && !strcmp(l.sym, "self_function"), "its own function by address (%s)",
		      l.sym ? l.sym : "NULL");
		unit_check_u64(l.symoff, 3, __FILE__, __LINE__, "its offset");
	}
	sym_machine_free(m);
	(void)self_function(0);
}

/* two copies alike in all (a .symtab's and a .dynsym's): perf's
 * choose_best_symbol keeps the first met, but drops a syscall alias's
 * (arch__choose_best_symbol: "SyS" and "compat_SyS" lose), so the later stays */
static void test_same_name(void)
{
	static const char *const names[] = { "read_fn", "SyS_read", "compat_SyS_read" };
	struct sym_table t;

	for (int k = 0; k < 3; k++) {
		sym_table_init(&t);
		add(&t, 0x1000, 0x10, STB_GLOBAL, names[k]);
		add(&t, 0x1000, 0x10, STB_GLOBAL, names[k]);
		sym_table_finish(&t);
		CHECK(t.nr == 1 && sym_seq(&t.syms[0]) == (k ? 1u : 0u),
		      "%s twice: the %s copy stays", names[k], k ? "second" : "first");
		sym_table_free(&t);
	}
}

int main(void)
{
	test_table();
	test_same_name();
	test_sort();
	test_borrowed();
	test_maps();
	test_kernel();
	test_self();
	return unit_failed ? 1 : 0;
}
