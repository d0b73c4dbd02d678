/* unit.h - the harness of the C unit tests for common/: numbered
 * "ok N - what" / "not ok N - what (file:line)" lines and an exit status,
 * after libperf's include/internal/tests.h __T, plus byte builders.
 * tests/run.sh runs every build/unit/NAME: exit 0 passes, "ok" lines count. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- tracepoint formats ---- */

/* the common fields every tracepoint format of Linux 6.1 begins with, and
 * the blank line after them (format text, as tracefs shows it) */
#define TP_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

/* ---- checks ---- */

static int unit_nr, unit_failed;

static inline void unit_vline(int ok, const char *file, int line, const char *fmt, va_list ap)
{
	const char *base = strrchr(file, '/');

	printf("%sok %d - ", ok ? "" : "not ", ++unit_nr);
	vprintf(fmt, ap);
	if (!ok) {
		printf(" (%s:%d)", base ? base + 1 : file, line);
		unit_failed++;
	}
	putchar('\n');
	fflush(stdout);
}

__attribute__((format(printf, 4, 5)))
static inline int unit_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	unit_vline(ok, file, line, fmt, ap);
	va_end(ap);
	return ok;
}

__attribute__((format(printf, 5, 6)))
static inline int unit_check_u64(uint64_t got, uint64_t want, const char *file, int line,
				 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	unit_vline(got == want, file, line, fmt, ap);
	va_end(ap);
	if (got != want)
		printf("#   got %" PRIu64 " (0x%" PRIx64 "), want %" PRIu64 " (0x%" PRIx64 ")\n",
		       got, got, want, want);
	return got == want;
}

__attribute__((format(printf, 5, 6)))
static inline int unit_check_str(const char *got, const char *want, const char *file, int line,
				 const char *fmt, ...)
{
	int ok = got && want ? !strcmp(got, want) : got == want;
	va_list ap;

	va_start(ap, fmt);
	unit_vline(ok, file, line, fmt, ap);
	va_end(ap);
	if (!ok)
		printf("#   got \"%s\", want \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
	return ok;
}

/* T(cond, "what %d", ...): one numbered check. */
#define T(cond, ...)           unit_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* T_EQ(got, want, "what"): integers, both printed when they differ. */
#define T_EQ(got, want, ...)   unit_check_u64((uint64_t)(got), (uint64_t)(want), \
					      __FILE__, __LINE__, __VA_ARGS__)
/* T_STR(got, want, "what"): strings (NULL allowed), both printed when they differ. */
#define T_STR(got, want, ...)  unit_check_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)

/* A comment line; run.sh only counts lines that start with "ok". */
#define NOTE(...) do { printf("# "); printf(__VA_ARGS__); putchar('\n'); } while (0)

/* done - print the tally and return the exit status (0: every check passed) */
static inline int done(void)
{
	printf("# %d checks, %d failed\n", unit_nr, unit_failed);
	return unit_failed ? 1 : 0;
}

/* in_child - run @fn(@arg) in a forked child so that a crash or a
 * sanitizer report fails one check instead of ending the test; returns the
 * child's exit status (0 = fine), or 128 + the signal that killed it. */
static inline int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		int r = fn(arg);

		fflush(stdout);
		_exit(r);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- bytes ----
 * perf.data is written in the recording machine's byte order, and these
 * tests read it back on the same machine, so fields are laid out in host
 * order: little-endian on x86_64, where every fixture here comes from. */

/* Byte lists for array initialisers: { U32(9), U16(1), U16(120), ... }. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define U16(v) (unsigned char)((v) & 0xff), (unsigned char)(((v) >> 8) & 0xff)
#define U32(v) U16((uint32_t)(v) & 0xffff), U16(((uint32_t)(v) >> 16) & 0xffff)
#define U64(v) U32((uint64_t)(v) & 0xffffffffu), U32(((uint64_t)(v) >> 32) & 0xffffffffu)
#else
#define U16(v) (unsigned char)(((v) >> 8) & 0xff), (unsigned char)((v) & 0xff)
#define U32(v) U16(((uint32_t)(v) >> 16) & 0xffff), U16((uint32_t)(v) & 0xffff)
#define U64(v) U32(((uint64_t)(v) >> 32) & 0xffffffffu), U32((uint64_t)(v) & 0xffffffffu)
#endif

/* put_uN - store @v at @buf + @off; returns the offset just past it */
static inline size_t put_u8(unsigned char *buf, size_t off, uint8_t v)
{
	buf[off] = v;
	return off + 1;
}

static inline size_t put_u16(unsigned char *buf, size_t off, uint16_t v)
{
	memcpy(buf + off, &v, 2);
	return off + 2;
}

static inline size_t put_u32(unsigned char *buf, size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
	return off + 4;
}

static inline size_t put_u64(unsigned char *buf, size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
	return off + 8;
}

/* A growing byte buffer for whole files and payloads. */
struct ubuf {
	unsigned char *p;
	size_t len, cap;
};

static inline unsigned char *ub_room(struct ubuf *b, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap - b->len < n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			perror("unit: realloc");
			exit(2);
		}
		memset(b->p + b->cap, 0, cap - b->cap);
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

static inline size_t ub_bytes(struct ubuf *b, const void *src, size_t n)
{
	if (n)
		memcpy(ub_room(b, n), src, n);
	return b->len;
}

static inline size_t ub_zero(struct ubuf *b, size_t n)  { memset(ub_room(b, n), 0, n); return b->len; }
static inline size_t ub_u8(struct ubuf *b, uint8_t v)   { return ub_bytes(b, &v, 1); }
static inline size_t ub_u16(struct ubuf *b, uint16_t v) { return ub_bytes(b, &v, 2); }
static inline size_t ub_u32(struct ubuf *b, uint32_t v) { return ub_bytes(b, &v, 4); }
static inline size_t ub_u64(struct ubuf *b, uint64_t v) { return ub_bytes(b, &v, 8); }
/* ub_str - the string and its NUL */
static inline size_t ub_str(struct ubuf *b, const char *s) { return ub_bytes(b, s, strlen(s) + 1); }
/* ub_align - zero bytes up to a multiple of @a */
static inline size_t ub_align(struct ubuf *b, size_t a)  { return ub_zero(b, (a - b->len % a) % a); }
static inline void ub_free(struct ubuf *b) { free(b->p); memset(b, 0, sizeof(*b)); }

#endif
