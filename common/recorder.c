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
#include "pd_format.h"
#include "recorder.h"

#define DRAIN_CHUNK (64u << 10)     /* a full disk costs at most this much */

void rec_attr(const struct recorder *r, const struct rec_opts *o, size_t i,
	      unsigned char attr[128])
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	memset(attr, 0, 128);
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a) < 128 ? sizeof(a) : 128;
	a.config = r->evs[i].config;
	a.sample_period = o->period ? o->period : 1;
	a.sample_type = REC_SAMPLE_TYPE;
	a.disabled = 1;
	a.inherit = 1;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(o->pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	a.enable_on_exec = o->enable_on_exec ? 1 : 0;
	if (i == 0) {
		a.comm = 1;
		a.task = 1;
		a.comm_exec = 1;
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
	r->counts.time_off = PD_EVENT_HEADER + 3 * 8;   /* IDENTIFIER, IP, TID, then TIME */
	r->fds = calloc(o->nr_cpus * nr_threads * nr_evs, sizeof(int));
	r->rings = calloc(o->nr_cpus, sizeof(*r->rings));
	if (!r->fds || !r->rings)
		return TB_ERR_NOMEM;
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)o->exclude_pid);
	for (size_t c = 0; c < o->nr_cpus; c++) {
		int leader = -1;

		for (size_t t = 0; t < nr_threads; t++) {
			for (size_t i = 0; i < nr_evs; i++) {
				unsigned char attr[128];
				pid_t pid = o->tids ? o->tids[t] : -1;
				uint64_t id;
				int fd;

				rec_attr(r, o, i, attr);
				fd = (int)syscall(SYS_perf_event_open, attr, pid, o->cpus[c], -1,
						  PERF_FLAG_FD_CLOEXEC);
				if (fd < 0) {
					int e = errno;

					rec_close(r);
					return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
							  "perf_event_open %s:%s on cpu %d: %s",
							  evs[i].system, evs[i].name, o->cpus[c],
							  open_hint(e));
				}
				r->fds[r->nr_fds++] = fd;
				if (o->exclude_pid && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
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
	static const unsigned char round[8] = { PD_REC_FINISHED_ROUND, 0, 0, 0, 0, 0, 8, 0 };
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
		struct iovec v = { (void *)round, sizeof(round) };

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
