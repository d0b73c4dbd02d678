/* test_writer.c - pd_writer and pdw_features (common/record/pd_writer.h,
 * common/record/pd_wfeatures.h) against the reader: a recording written in file
 * mode and in pipe mode reads back with every header value in its own
 * place (hostname, os release, version, arch, CPUs, command line, syscall
 * map), its attr and its one sample. The tracing data is the fixture
 * tests/files/small.data's (perf 6.1 on x86_64). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "record/pd_wbuild.h"
#include "record/pd_writer.h"
#include "tracepoint/syscall_map.h"
#include "unit.h"

#define SYS_ENTER_ID 443       /* raw_syscalls:sys_enter in small.data */
#define SAMPLE_TYPE (PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ID | PD_S_CPU | PD_S_PERIOD | PD_S_RAW)

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* The TRACING_DATA section (feature bit 1, the first set bit) of small.data. */
static unsigned char *fixture_td(size_t *len)
{
	const char *top = getenv("TOP");
	char path[4096];
	unsigned char hdr[104], idx[16], *td;
	int fd;

	snprintf(path, sizeof(path), "%s/tests/files/small.data", top ? top : ".");
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, hdr, sizeof(hdr), 0) != sizeof(hdr) || !(hdr[72] & 2) ||
	    pread(fd, idx, 16, (off_t)(get64(hdr + 40) + get64(hdr + 48))) != 16) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*len = get64(idx + 8);
	td = malloc(*len);
	if (td && pread(fd, td, *len, (off_t)get64(idx)) != (ssize_t)*len) {
		free(td);
		td = NULL;
	}
	close(fd);
	return td;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* One sys_enter sample: id 39 (getpid), at 12.000000345 s, on CPU 1. */
static size_t sample_record(unsigned char *r)
{
	uint32_t u32;
	uint16_t u16;
	size_t o = 8;

	memset(r, 0, 128);
	put64(r + o, 0xffffffff81000000ULL), o += 8;          /* ip */
	u32 = 4242, memcpy(r + o, &u32, 4), memcpy(r + o + 4, &u32, 4), o += 8;  /* pid, tid */
	put64(r + o, 12000000345ULL), o += 8;                 /* time */
	put64(r + o, 7), o += 8;                              /* id */
	u32 = 1, memcpy(r + o, &u32, 4), o += 8;              /* cpu, res */
	put64(r + o, 1), o += 8;                              /* period */
	u32 = 68, memcpy(r + o, &u32, 4), o += 4;             /* raw size: 64 + 4 padding */
	u16 = SYS_ENTER_ID, memcpy(r + o, &u16, 2);           /* common_type */
	u32 = 4242, memcpy(r + o + 4, &u32, 4);               /* common_pid */
	put64(r + o + 8, 39);                                 /* id */
	o += 68;
	u32 = PD_REC_SAMPLE, memcpy(r, &u32, 4);
	u16 = (uint16_t)o, memcpy(r + 6, &u16, 2);
	return o;
}

struct seen {
	int n;
	uint64_t time, id_field;
	int cpu;
};

static int on_sample(void *ctx, const struct pd_event *ev)
{
	struct seen *s = ctx;

	s->n++;
	s->time = ev->sample->time;
	s->cpu = ev->sample->cpu;
	if (ev->sample->raw && ev->sample->raw_size >= 16)
		s->id_field = get64(ev->sample->raw + 8);
	return 0;
}

static void check_back(const char *path, int pipe_mode, char **argv, int argc)
{
	struct pd_session *s;
	struct tb_err err = { 0 };
	struct seen seen = { 0 };
	struct pd_consumer c = { .ctx = &seen, .sample = on_sample };
	const struct pd_header_info *h;
	struct utsname u;
	const char *mode = pipe_mode ? "pipe" : "file";
	int fd = open(path, O_RDONLY);

	uname(&u);
	if (!T(pd_session_open(&s, path, fd, &err) == 0, "%s mode: reads back (%s)", mode, err.msg))
		return;
	h = pd_session_info(s);
	T_EQ(pd_session_is_pipe(s), pipe_mode, "%s mode: the mode", mode);
	T_STR(h->hostname, u.nodename, "%s mode: hostname is uname -n", mode);
	T_STR(h->osrelease, u.release, "%s mode: os release is uname -r", mode);
	T_STR(h->arch, u.machine, "%s mode: arch is uname -m", mode);
	T_STR(h->version, "tracebox-test 9.9", "%s mode: perf version is the writer's", mode);
	T(h->has_nrcpus && h->nr_cpus_online == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN),
	  "%s mode: CPUs online", mode);
	T_EQ(h->nr_cmdline, argc, "%s mode: the command line's word count", mode);
	for (int i = 0; i < argc && i < (int)h->nr_cmdline; i++)
		T_STR(h->cmdline[i], argv[i], "%s mode: command line word %d", mode, i);
	T(h->has_syscalls && h->syscalls.nr == 2, "%s mode: the syscall map's 2 entries", mode);
	if (h->has_syscalls && h->syscalls.nr == 2)
		T_STR(h->syscalls.ents[1].name, "write", "%s mode: syscall 1", mode);
	if (!pipe_mode) {
		T_EQ(pd_session_nr_evsels(s), 1, "file mode: one attr");
		T_STR(pd_session_evsel(s, 0)->name, "raw_syscalls:sys_enter", "file mode: its name");
	}
	T(pd_session_process(s, &c, &err) == 0, "%s mode: processed (%s)", mode, err.msg);
	T_EQ(seen.n, 1, "%s mode: one sample", mode);
	T_EQ(seen.time, 12000000345ULL, "%s mode: its time", mode);
	T_EQ(seen.cpu, 1, "%s mode: its CPU", mode);
	T_EQ(seen.id_field, 39, "%s mode: its raw data", mode);
	pd_session_close(s);
}

static void write_one(const char *path, int pipe_mode)
{
	static char *argv[] = { "trace-record", "-e", "raw_syscalls:sys_enter", "it's", NULL };
	static const uint64_t ids[] = { 7 };
	struct sc_entry ents[] = { { 0, "read" }, { 1, "write" } };
	struct syscall_map map = { "x86_64", "unit test", ents, 2 };
	struct pd_wattr attr = { .ids = ids, .nr_ids = 1, .name = "raw_syscalls:sys_enter" };
	struct pdw_features f = { 0 };
	struct pd_writer w;
	struct tb_err err = { 0 };
	unsigned char rec[128], *td;
	size_t td_len = 0;
	struct iovec v = { rec, 0 };
	uint32_t u32;
	int fd;

	td = fixture_td(&td_len);
	if (!T(td != NULL, "small.data's tracing data (TOP=%s)", getenv("TOP")))
		return;
	u32 = PD_TYPE_TRACEPOINT, memcpy(attr.attr + PD_ATTR_OFF_TYPE, &u32, 4);
	u32 = 128, memcpy(attr.attr + PD_ATTR_OFF_SIZE, &u32, 4);
	put64(attr.attr + PD_ATTR_OFF_CONFIG, SYS_ENTER_ID);
	put64(attr.attr + PD_ATTR_OFF_PERIOD, 1);
	put64(attr.attr + PD_ATTR_OFF_SAMPLE_TYPE, SAMPLE_TYPE);
	T(pdw_features_build(&f, td, td_len, "tracebox-test 9.9", 4, argv, &attr, 1, &map) == 0,
	  "%s mode: the features", pipe_mode ? "pipe" : "file");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	v.iov_len = sample_record(rec);
	T(pd_writer_start(&w, fd, pipe_mode, &attr, 1, f.f, f.nr, &err) == 0 &&
	  pd_writer_write(&w, &v, 1, &err) == 0 && pd_writer_finish(&w, &err) == 0,
	  "%s mode: written (%s)", pipe_mode ? "pipe" : "file", err.msg);
	close(fd);
	pdw_features_free(&f);
	check_back(path, pipe_mode, argv, 4);
}

int main(void)
{
	char dir[] = "/tmp/tracebox-writer.XXXXXX", path[64];

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/file.data", dir);
	write_one(path, 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pipe.data", dir);
	write_one(path, 1);
	unlink(path);
	rmdir(dir);
	return done();
}
