/* test_syscall_map.c - the syscall map (common/tracepoint/syscall_map.h): the built-in
 * x86_64 table generated from linux-source-6.1's syscall_64.tbl holds every
 * "common" and "64" line of that table, first to last; the aarch64 one holds
 * the asm-generic numbers; an arch without a table has none; a tracefs-style
 * syscall_map text is loaded in its place when tracefs has one; scmap_name
 * looks up. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <sys/stat.h>
#include "tracepoint/syscall_map.h"
#include "unit.h"

#define TARBALL "/usr/src/linux-source-6.1.tar.xz"
#define TBL     "linux-source-6.1/arch/x86/entry/syscalls/syscall_64.tbl"

/* The expectation, read from the source the way gen-syscalls.sh reads it:
 * the "NR ABI NAME ..." lines of ABI common or 64, in file order. */
struct tbl {
	uint32_t nr[1024];
	char name[1024][64];
	uint32_t n;
};

static int read_tbl(struct tbl *t)
{
	char line[512], abi[32], name[64];
	unsigned nr;
	FILE *p;

	t->n = 0;
	/* --occurrence=1: stop at the file rather than read the whole tarball */
	p = popen("tar -xJOf " TARBALL " --occurrence=1 " TBL " 2>/dev/null", "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (line[0] != '#' && sscanf(line, "%u %31s %63s", &nr, abi, name) == 3 &&
		    (!strcmp(abi, "common") || !strcmp(abi, "64")) && t->n < 1024) {
			t->nr[t->n] = nr;
			snprintf(t->name[t->n], sizeof(t->name[0]), "%s", name);
			t->n++;
		}
	return pclose(p) == 0 && t->n > 0 ? 0 : -1;
}

static uint32_t builtin_nr(const char *arch)
{
	const struct sc_builtin_table *t = scmap_builtin_find(arch);

	return t ? t->nr : 0;
}

static void test_builtin(void)
{
	static struct tbl t;
	struct syscall_map m;
	struct tb_err err = { 0 };
	uint32_t same = 0;

	if (access(TARBALL, R_OK) || read_tbl(&t)) {
		NOTE("no %s: the built-in tables are missing by design; only that is checked", TARBALL);
		T(scmap_builtin_tables[0].arch == NULL, "without the kernel source no built-in table");
		T(scmap_from_builtin(&m, "x86_64", &err) != 0, "...and scmap_from_builtin refuses");
		return;
	}
	NOTE("%s: %u lines of ABI common or 64", TBL, t.n);
	T_EQ(builtin_nr("x86_64"), t.n, "built-in x86_64 entries = the table's common/64 lines");
	T_EQ(scmap_from_builtin(&m, "x86_64", &err), 0, "scmap_from_builtin(x86_64)");
	T_EQ(m.nr, t.n, "the loaded map has every entry");
	for (uint32_t i = 0; i < t.n && i < m.nr; i++)
		same += m.ents[i].nr == t.nr[i] && !strcmp(m.ents[i].name, t.name[i]);
	T_EQ(same, t.n, "every entry has the table's number and name, in the table's order");
	T(m.nr > 0 && m.ents[0].nr == t.nr[0] && !strcmp(m.ents[0].name, t.name[0]),
	  "first entry: %u %s", t.nr[0], t.name[0]);
	T(m.nr >= t.n && m.ents[t.n - 1].nr == t.nr[t.n - 1] &&
	  !strcmp(m.ents[t.n - 1].name, t.name[t.n - 1]),
	  "last entry: %u %s", t.nr[t.n - 1], t.name[t.n - 1]);
	T_STR(m.arch, "x86_64", "its arch");
	T(m.source && strstr(m.source, "syscall_64.tbl"), "its source names the table (%s)",
	  m.source ? m.source : "(null)");
	T_STR(scmap_name(&m, t.nr[0]), t.name[0], "scmap_name(first)");
	T_STR(scmap_name(&m, t.nr[t.n - 1]), t.name[t.n - 1], "scmap_name(last)");
	T_STR(scmap_name(&m, 110), "getppid", "scmap_name(110) is getppid");
	T_STR(scmap_name(&m, 100000), NULL, "scmap_name of a number past the table: NULL");
	scmap_free(&m);

	/* aarch64: the asm-generic numbers, aliases (__NR3264_*) resolved */
	T_EQ(scmap_from_builtin(&m, "aarch64", &err), 0, "scmap_from_builtin(aarch64)");
	T(m.nr > 250, "aarch64: %u entries", m.nr);
	T_STR(m.arch, "aarch64", "its arch");
	T(m.source && strstr(m.source, "arm64/include/uapi/asm/unistd.h"), "its source names the header");
	T_STR(scmap_name(&m, 173), "getppid", "aarch64: 173 is getppid");
	T_STR(scmap_name(&m, 56), "openat", "aarch64: 56 is openat");
	T_STR(scmap_name(&m, 0), "io_setup", "aarch64: 0 is io_setup");
	T_STR(scmap_name(&m, 80), "fstat", "aarch64: 80 is fstat (an __NR3264_ alias)");
	T_STR(scmap_name(&m, 222), "mmap", "aarch64: 222 is mmap (an __NR3264_ alias)");
	T_STR(scmap_name(&m, 435), "clone3", "aarch64: 435 is clone3 (__ARCH_WANT_SYS_CLONE3)");
	T_STR(scmap_name(&m, 244), NULL, "aarch64: 244 (arch_specific_syscall) is no syscall");
	scmap_free(&m);
	T_EQ(scmap_from_builtin(&m, "arm64", &err), 0, "arm64 is another name for aarch64");
	T_STR(scmap_name(&m, 173), "getppid", "...the same table");
	scmap_free(&m);

	/* arm: the 32-bit EABI table (arch/arm/tools/syscall.tbl, common + eabi) */
	T_EQ(scmap_from_builtin(&m, "arm", &err), 0, "scmap_from_builtin(arm)");
	T(m.nr > 350, "arm: %u entries", m.nr);
	T_STR(m.arch, "arm", "its arch");
	T(m.source && strstr(m.source, "arch/arm/tools/syscall.tbl"), "its source names the table");
	T_STR(scmap_name(&m, 64), "getppid", "arm: 64 is getppid");
	T_STR(scmap_name(&m, 20), "getpid", "arm: 20 is getpid");
	T_STR(scmap_name(&m, 322), "openat", "arm: 322 is openat");
	T_STR(scmap_name(&m, 248), "exit_group", "arm: 248 is exit_group");
	T_STR(scmap_name(&m, 192), "mmap2", "arm: 192 is mmap2");
	T_STR(scmap_name(&m, 270), "arm_fadvise64_64", "arm: 270 is arm_fadvise64_64");
	scmap_free(&m);
	T_EQ(scmap_from_builtin(&m, "armv7l", &err), 0, "armv7l (uname -m) is arm");
	T_STR(scmap_name(&m, 64), "getppid", "...the same table");
	scmap_free(&m);

	/* s390x: arch/s390/kernel/syscalls/syscall.tbl, common + 64 with a 64-bit entry */
	T_EQ(scmap_from_builtin(&m, "s390x", &err), 0, "scmap_from_builtin(s390x)");
	T(m.nr > 350, "s390x: %u entries", m.nr);
	T_STR(m.arch, "s390x", "its arch");
	T(m.source && strstr(m.source, "arch/s390/kernel/syscalls/syscall.tbl"), "its source names the table");
	T_STR(scmap_name(&m, 64), "getppid", "s390x: 64 is getppid");
	T_STR(scmap_name(&m, 20), "getpid", "s390x: 20 is getpid");
	T_STR(scmap_name(&m, 288), "openat", "s390x: 288 is openat");
	T_STR(scmap_name(&m, 248), "exit_group", "s390x: 248 is exit_group");
	T_STR(scmap_name(&m, 90), "mmap", "s390x: 90 is mmap (old_mmap's entry)");
	T_STR(scmap_name(&m, 191), "getrlimit", "s390x: 191 is getrlimit (64-bit ABI)");
	T(scmap_name(&m, 112) == NULL, "s390x: 112 (idle, no 64-bit entry) has no name");
	scmap_free(&m);

	T(scmap_from_builtin(&m, "riscv64", &err) != 0 && err.code == TB_ERR_UNSUPPORTED,
	  "an arch without a table: TB_ERR_UNSUPPORTED (%s)", err.msg);
	T(m.nr == 0 && m.ents == NULL, "...and an empty map");
	scmap_free(&m);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* load_fallback - in a child: scmap_load on @arg's empty syscall_map gives the built-in table */
static int load_fallback(void *arg)
{
	struct syscall_map m;
	struct tb_err err = { 0 };
	int r = scmap_load(&m, arg, "x86_64", &err);

	r = r == (builtin_nr("x86_64") ? 0 : TB_ERR_UNSUPPORTED) && m.nr == builtin_nr("x86_64") ? 0 : 1;
	scmap_free(&m);
	return r;
}

static void test_tracefs_text(void)
{
	char dir[] = "/tmp/test_syscall_map.XXXXXX", path[256];
	struct syscall_map m;
	struct tb_err err = { 0 };

	if (!mkdtemp(dir)) {
		T(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/syscall_map", dir);
	/* the patched kernel's file: "NR NAME" lines, any order; junk ignored */
	write_file(path, "3 close\n0 read\n1 write\n# a comment\nnot a line\n2 open");
	T_EQ(scmap_load(&m, dir, "x86_64", &err), 0, "scmap_load from a tracefs with syscall_map");
	T_EQ(m.nr, 4, "four \"NR NAME\" lines, the others skipped");
	T_STR(m.source, "kernel (tracefs syscall_map)", "source: the kernel");
	T(m.nr == 4 && m.ents[0].nr == 0 && m.ents[3].nr == 3, "sorted by number");
	T_STR(scmap_name(&m, 0), "read", "scmap_name(0)");
	T_STR(scmap_name(&m, 2), "open", "scmap_name(2): the last line without a newline");
	T_STR(scmap_name(&m, 3), "close", "scmap_name(3)");
	T_STR(scmap_name(&m, 4), NULL, "scmap_name(4): not in this map");
	scmap_free(&m);

	/* a syscall_map with no "NR NAME" line: the built-in table instead
	 * (in a child: an empty map once reached qsort(NULL, 0), which UBSan
	 * aborts on) */
	write_file(path, "");
	T(in_child(load_fallback, dir) == 0,
	  "a syscall_map without entries falls back to the built-in table");

	/* no syscall_map at all (an unpatched kernel) */
	unlink(path);
	T_EQ(scmap_load(&m, dir, "x86_64", &err), builtin_nr("x86_64") ? 0 : TB_ERR_UNSUPPORTED,
	     "no syscall_map: the built-in table");
	T(m.nr == builtin_nr("x86_64") && (!m.nr || strstr(m.source, "build-time")),
	  "...named as the build-time table");
	scmap_free(&m);
	rmdir(dir);

	/* scmap_from_text directly: a name keeps everything after one space */
	T_EQ(scmap_from_text(&m, "59 execve\n322 execveat\n", 22, "x86_64", "test"), 0,
	     "scmap_from_text");
	T_STR(scmap_name(&m, 322), "execveat", "scmap_name(322)");
	T_STR(scmap_name(&m, 59), "execve", "scmap_name(59)");
	scmap_free(&m);
}

static void test_encode_decode(void)
{
	struct syscall_map m, back;
	struct tb_err err = { 0 };
	unsigned char *buf = NULL;
	size_t len = 0;

	scmap_from_text(&m, "1 write\n0 read\n", 15, "x86_64", "unit");
	T_EQ(scmap_encode(&m, &buf, &len), 0, "scmap_encode");
	T_EQ(scmap_decode(&back, buf, len, 0, &err), 0, "scmap_decode of its own encoding");
	T(back.nr == 2 && !strcmp(back.arch, "x86_64") && !strcmp(back.source, "unit"),
	  "round trip: 2 entries, arch, source");
	T_STR(scmap_name(&back, 1), "write", "round trip: scmap_name(1)");
	scmap_free(&back);
	T(scmap_decode(&back, buf, len - 1, 0, &err) != 0, "one byte short: an error (%s)", err.msg);
	scmap_free(&back);
	scmap_free(&m);
	free(buf);
}

int main(void)
{
	test_builtin();
	test_tracefs_text();
	test_encode_decode();
	return done();
}
