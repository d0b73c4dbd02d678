/* recorder.c - the recording engine of trace-record: perf_event_open(2)
 * for each tracepoint on each CPU, one mmap ring per CPU (the other fds
 * redirected with PERF_EVENT_IOC_SET_OUTPUT), drained pass by pass, each
 * pass ended by a FINISHED_ROUND as perf record does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perfdata/pd_format.h"
#include "record/recorder.h"

#define DRAIN_CHUNK (64u << 10)     /* a full disk costs at most this much */

/* The sample_type perf's evsel__config gives event @e before the ID bits. */
static uint64_t base_sample_type(const struct rec_event *e, const struct rec_opts *o)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

	if (e->kind == REC_TRACEPOINT)
		st |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	else if (e->kind != REC_DUMMY ? !o->period : o->user_freq)
		st |= PERF_SAMPLE_PERIOD;          /* sampled by frequency */
	if (o->sample_cpu)
		st |= PERF_SAMPLE_CPU;
	if (o->callchain)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (o->regs_user)
		st |= PERF_SAMPLE_REGS_USER;
	if (o->stack_user)
		st |= PERF_SAMPLE_STACK_USER;
	if (o->mmap_data)
		st |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	return st;
}

uint64_t rec_sample_type(const struct rec_event *evs, size_t nr, const struct rec_opts *o,
			 size_t i)
{
	uint64_t st = base_sample_type(&evs[i], o);

	if (nr < 2)
		return st;
	/* perf: ID when every event samples alike, else IDENTIFIER */
	for (size_t k = 1; k < nr; k++)
		if (base_sample_type(&evs[k], o) != base_sample_type(&evs[0], o))
			return st | PERF_SAMPLE_IDENTIFIER;
	return st | PERF_SAMPLE_ID;
}

size_t rec_tracking(const struct rec_event *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (evs[i].kind == REC_DUMMY)
			return i;
	return 0;
}

void rec_attr(const struct recorder *r, const struct rec_opts *o, size_t i,
	      unsigned char attr[128])
{
	const struct rec_event *e = &r->evs[i];
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	memset(attr, 0, 128);
	a.type = e->type;
	a.size = sizeof(a) < 128 ? sizeof(a) : 128;
	a.config = e->config;
	/* perf: tracepoints sample every event and the dummy every one,
	 * unless -c or -F says otherwise; the others at 4000 Hz */
	if (o->period)
		a.sample_period = o->period;
	else if (o->user_freq || (e->kind != REC_TRACEPOINT && e->kind != REC_DUMMY))
		a.freq = 1, a.sample_freq = o->freq;
	else
		a.sample_period = 1;
	a.sample_type = rec_sample_type(r->evs, r->nr_evs, o, i);
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.disabled = e->kind != REC_DUMMY;     /* perf enables the dummy at once */
	a.inherit = 1;
	a.sample_id_all = 1;
	a.exclude_guest = e->kind != REC_DUMMY && e->kind != REC_DEFAULT;
	a.precise_ip = e->kind == REC_DEFAULT ? 3 : 0;   /* cycles:P */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(o->pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	a.enable_on_exec = o->enable_on_exec && e->kind != REC_DUMMY;
	a.sample_regs_user = o->regs_user;
	a.sample_stack_user = (uint32_t)o->stack_user;
	a.exclude_callchain_user = o->exclude_callchain_user ? 1 : 0;
	if (i == rec_tracking(r->evs, r->nr_evs)) {
		a.mmap = !o->no_mmaps;
		a.mmap2 = !o->no_mmaps;
		a.mmap_data = o->mmap_data ? 1 : 0;
		a.comm = 1;
		a.comm_exec = 1;
		a.task = 1;
		a.ksymbol = !o->no_mmaps;
		a.bpf_event = !o->no_mmaps;
	}
	memcpy(attr, &a, sizeof(a) < 128 ? sizeof(a) : 128);
	memcpy(attr + PD_ATTR_OFF_SIZE, &(uint32_t){ 128 }, 4);
}

static const char *open_hint(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "not permitted: run as root, or lower /proc/sys/kernel/perf_event_paranoid "
		       "to -1 (and allow tracefs access)";
	case ENOENT:
	case EINVAL:
		return "the kernel refused this tracepoint";
	case EMFILE:
		return "too many open files (raise ulimit -n)";
	default:
		return strerror(e);
	}
}

/* perf_event_open event @i; a refused cycles becomes cpu-clock, as perf's
 * evsel__fallback does where there is no hardware PMU. */
static int open_one(struct recorder *r, const struct rec_opts *o, size_t i, pid_t pid, int cpu)
{
	struct rec_event *e = &r->evs[i];
	unsigned char attr[128];
	int fd;

	rec_attr(r, o, i, attr);
	fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 || e->type != PERF_TYPE_HARDWARE || e->config != PERF_COUNT_HW_CPU_CYCLES ||
	    (errno != ENOENT && errno != ENXIO && errno != ENODEV && errno != EOPNOTSUPP))
		return fd;
	e->type = PERF_TYPE_SOFTWARE;
	e->config = PERF_COUNT_SW_CPU_CLOCK;
	e->fell_back = 1;
	rec_attr(r, o, i, attr);
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int open_error(struct tb_err *err, const struct rec_event *e, int cpu, int errnum)
{
	/* perf's words for a hardware event the machine lacks */
	if (e->type == PERF_TYPE_HARDWARE && (errnum == ENOENT || errnum == ENODEV ||
					      errnum == EOPNOTSUPP || errnum == ENXIO))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "The %s event is not supported.", e->name);
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "perf_event_open %s%s%s on cpu %d: %s",
			  e->system ? e->system : "", e->system ? ":" : "", e->name, cpu,
			  e->kind == REC_TRACEPOINT || errnum == EACCES || errnum == EPERM ||
			  errnum == EMFILE ? open_hint(errnum) : strerror(errnum));
}

static int add_id(struct rec_event *e, uint64_t id)
{
	uint64_t *n = realloc(e->ids, (e->nr_ids + 1) * sizeof(*n));

	if (!n)
		return TB_ERR_NOMEM;
	e->ids = n;
	e->ids[e->nr_ids++] = id;
	return 0;
}

int rec_open(struct recorder *r, struct rec_event *evs, size_t nr_evs,
	     const struct rec_opts *o, struct tb_err *err)
{
	size_t nr_threads = o->tids ? o->nr_tids : 1;
	char filter[64];
	int rc;

	memset(r, 0, sizeof(*r));
	r->evs = evs;
	r->nr_evs = nr_evs;
	/* [IDENTIFIER], IP, TID, then TIME: where every event has it (same
	 * sample_type, or IDENTIFIER first) */
	r->counts.time_off = PD_EVENT_HEADER + 2 * 8 +
		((rec_sample_type(evs, nr_evs, o, 0) & PERF_SAMPLE_IDENTIFIER) ? 8 : 0);
	r->fds = calloc(o->nr_cpus * nr_threads * nr_evs, sizeof(int));
	r->rings = calloc(o->nr_cpus, sizeof(*r->rings));
	if (!r->fds || !r->rings)
		return TB_ERR_NOMEM;
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)o->exclude_pid);
	for (size_t c = 0; c < o->nr_cpus; c++) {
		int leader = -1;

		for (size_t t = 0; t < nr_threads; t++) {
			for (size_t i = 0; i < nr_evs; i++) {
				pid_t pid = o->tids ? o->tids[t] : -1;
				uint64_t id;
				int fd;

				fd = open_one(r, o, i, pid, o->cpus[c]);
				if (fd < 0) {
					int e = errno;

					rec_close(r);
					return open_error(err, &evs[i], o->cpus[c], e);
				}
				r->fds[r->nr_fds++] = fd;
				if (o->exclude_pid && evs[i].kind == REC_TRACEPOINT &&
				    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
					rec_close(r);
					return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
							  "cannot filter %s:%s (\"%s\"): %s",
							  evs[i].system, evs[i].name, filter,
							  strerror(errno));
				}
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id) || add_id(&evs[i], id)) {
					rec_close(r);
					return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
							  "cannot read the event id: %s", strerror(errno));
				}
				if (leader < 0) {
					leader = fd;
					rc = ring_map(&r->rings[r->nr_rings], fd, o->pages, err);
					if (rc) {
						rec_close(r);
						return rc;
					}
					r->nr_rings++;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, leader)) {
					rec_close(r);
					return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
							  "cannot share the cpu %d ring: %s",
							  o->cpus[c], strerror(errno));
				}
			}
		}
	}
	return 0;
}

int rec_enable(struct recorder *r, struct tb_err *err)
{
	for (size_t i = 0; i < r->nr_fds; i++)
		if (ioctl(r->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot enable: %s",
					  strerror(errno));
	return 0;
}

void rec_disable(struct recorder *r)
{
	for (size_t i = 0; i < r->nr_fds; i++)
		ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

/* One pollfd per ring, every CPU's: sized to nr_rings on each call (a
 * malloc per 100 ms wait costs nothing next to the drain). */
int rec_poll(struct recorder *r, int timeout_ms)
{
	struct pollfd *pfd = calloc(r->nr_rings ? r->nr_rings : 1, sizeof(*pfd));
	int got;

	if (!pfd) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < r->nr_rings; i++) {
		pfd[i].fd = r->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	got = poll(pfd, r->nr_rings, timeout_ms);
	free(pfd);
	if (got > 0)
		r->wakeups++;
	return got < 0 ? -1 : 0;
}

int rec_drain(struct recorder *r, struct pd_writer *w, struct tb_err *err)
{
	/* perf_event_header in this machine's byte order (big-endian boards too) */
	static const struct { uint32_t type; uint16_t misc, size; } round = { PD_REC_FINISHED_ROUND, 0, 8 };
	int wrote = 0, rc;

	for (size_t i = 0; i < r->nr_rings; i++) {
		struct iovec iov[2];
		uint64_t head;
		int n;

		/* in bounded chunks, so a full disk costs at most one chunk */
		uint64_t before = r->counts.samples;
		/* at most what the ring held when this drain began: our own
		 * writes make events (--self), which must not keep us here */
		size_t budget = r->rings[i].data_size;

		while (budget && (n = ring_peek(&r->rings[i], iov, &head, DRAIN_CHUNK, &r->counts)) > 0) {
			size_t got = iov[0].iov_len + (n > 1 ? iov[1].iov_len : 0);

			budget = got < budget ? budget - got : 0;
			if (r->scan)
				r->scan(r->scan_ctx, iov, n);
			rc = pd_writer_write_samples(w, iov, n, r->counts.samples - before, err);
			before = r->counts.samples;
			ring_consume(&r->rings[i], head);
			if (rc)
				return rc;
			r->bytes += got;
			wrote = 1;
		}
	}
	if (wrote) {
		struct iovec v = { (void *)&round, sizeof(round) };

		if ((rc = pd_writer_write(w, &v, 1, err)))
			return rc;
	}
	return 0;
}

void rec_close(struct recorder *r)
{
	for (size_t i = 0; i < r->nr_rings; i++)
		ring_unmap(&r->rings[i]);
	for (size_t i = 0; i < r->nr_fds; i++)
		close(r->fds[i]);
	free(r->fds);
	free(r->rings);
	r->fds = NULL;
	r->rings = NULL;
	r->nr_fds = r->nr_rings = 0;
}
