/* test_fastfmt.c - tp_fastfmt (common/tracepoint/tp_fastfmt.h): the fast renderer of
 * simple print fmts prints the bytes tep_print_event prints, signed %d,
 * octal and hex included. Each case parses a format text with
 * libtraceevent, renders an inline record with tpf_render, and compares with the text perf script
 * prints (and with tep_print_event on the same record). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "tracepoint/tp_fastfmt.h"
#include "unit.h"

/* events/signal/signal_generate/format of Linux 6.1 (x86_64) */
static const char signal_generate_format[] =
	"name: signal_generate\n"
	"ID: 190\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:int group;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\tfield:int result;\toffset:44;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig, "
	"REC->errno, REC->code, REC->comm, REC->pid, REC->group, REC->result\n";

/* signal_generate of "tgkill(self, SIGUSR1)": si_code SI_TKILL = -6 */
static const unsigned char signal_tkill[] = {
	U16(190),                                  /* common_type */
	0,                                         /* common_flags */
	0,                                         /* common_preempt_count */
	U32(4242),                                 /* common_pid */
	U32(10),                                   /* sig: SIGUSR1 */
	U32(0),                                    /* errno */
	U32(-6),                                   /* code: SI_TKILL */
	'w', 'o', 'r', 'k', 'l', 'o', 'a', 'd',    /* comm[16] */
	0, 0, 0, 0, 0, 0, 0, 0,
	U32(4242),                                 /* pid */
	U32(0),                                    /* group */
	U32(0),                                    /* result */
};

/* the same with every int at its extreme: INT_MIN, -1, INT_MAX */
static const unsigned char signal_extremes[] = {
	U16(190),                                  /* common_type */
	0,                                         /* common_flags */
	0,                                         /* common_preempt_count */
	U32(1),                                    /* common_pid */
	U32(0x80000000u),                          /* sig: INT_MIN */
	U32(-1),                                   /* errno: -1 */
	U32(0x7fffffff),                           /* code: INT_MAX */
	'x', 0, 0, 0, 0, 0, 0, 0,                  /* comm[16] */
	0, 0, 0, 0, 0, 0, 0, 0,
	U32(-2),                                   /* pid: -2 */
	U32(1),                                    /* group */
	U32(-1),                                   /* result */
};

/* a 16-bit and a 64-bit signed field, "%d" and "%ld" */
static const char widths_format[] =
	"name: widths\n"
	"ID: 901\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:short s;\toffset:8;\tsize:2;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned int u;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"s=%d ret=%ld u=%u\", REC->s, REC->ret, REC->u\n";

static const unsigned char widths_rec[] = {
	U16(901),                                  /* common_type */
	0,                                         /* common_flags */
	0,                                         /* common_preempt_count */
	U32(7),                                    /* common_pid */
	U16(-3),                                   /* s: -3 */
	0, 0, 0, 0, 0, 0,                          /* padding to 16 */
	U64(-2),                                   /* ret: -ENOENT */
	U32(-6),                                   /* u: 4294967290, unsigned */
	0, 0, 0, 0,                                /* padding */
};

/* octal and hex conversions, upper and lower, padded, of 32 and 64 bits */
static const char bases_format[] =
	"name: bases\n"
	"ID: 902\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:unsigned int mode;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long addr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int zero;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"mode=%o flags=%X addr=%lx w=%08x z=%x o=%o\", REC->mode, REC->flags, "
	"REC->addr, REC->flags, REC->zero, REC->zero\n";

static const unsigned char bases_rec[] = {
	U16(902),                                  /* common_type */
	0,                                         /* common_flags */
	0,                                         /* common_preempt_count */
	U32(7),                                    /* common_pid */
	U32(0100755),                              /* mode */
	U32(0xbeef),                               /* flags */
	U64(0xffffffff8a0b1c2dULL),                /* addr */
	U32(0),                                    /* zero */
	0, 0, 0, 0,                                /* padding */
};

/* fast_and_slow - render @rec of the event in @format both ways: the fast
 * path into @fast (NULL if it declines the format), libtraceevent into @slow */
static int fast_and_slow(const char *format, const char *sys, const unsigned char *rec,
			 size_t size, char *fast, size_t fast_cap, char *slow, size_t slow_cap)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	struct tpf_prog *p;
	struct tep_record r = { .data = (void *)rec, .size = (int)size };
	struct trace_seq seq;
	int n = -2;

	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
			       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (tep_parse_format(tep, &ev, format, strlen(format), sys) || !ev) {
		tep_free(tep);
		return -3;
	}
	p = tpf_compile(ev);
	fast[0] = 0;
	if (p) {
		n = tpf_render(p, rec, (int)size, fast, fast_cap - 1);
		fast[n >= 0 ? n : 0] = 0;
		tpf_free(p);
	}
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	snprintf(slow, slow_cap, "%s", seq.buffer);
	trace_seq_destroy(&seq);
	tep_free(tep);
	return n;
}

static void test_negative_d(void)
{
	char fast[256], slow[256];
	int n;

	n = fast_and_slow(signal_generate_format, "signal", signal_tkill, sizeof(signal_tkill),
			  fast, sizeof(fast), slow, sizeof(slow));
	T(n >= 0, "signal_generate's print fmt takes the fast path (tpf_render returned %d)", n);
	T_STR(fast, "sig=10 errno=0 code=-6 comm=workload pid=4242 grp=0 res=0",
	      "fast path: a negative int printed with %%d is negative (perf script: code=-6)");
	T_STR(fast, slow, "fast path equals tep_print_event");

	n = fast_and_slow(signal_generate_format, "signal", signal_extremes,
			  sizeof(signal_extremes), fast, sizeof(fast), slow, sizeof(slow));
	T(n >= 0, "extremes: fast path taken (%d)", n);
	T_STR(fast, "sig=-2147483648 errno=-1 code=2147483647 comm=x pid=-2 grp=1 res=-1",
	      "fast path: INT_MIN, -1, INT_MAX and a negative pid_t");
	T_STR(fast, slow, "extremes: fast path equals tep_print_event");
}

static void test_widths(void)
{
	char fast[256], slow[256];
	int n;

	n = fast_and_slow(widths_format, "test", widths_rec, sizeof(widths_rec),
			  fast, sizeof(fast), slow, sizeof(slow));
	T(n >= 0, "short/long/unsigned print fmt takes the fast path (%d)", n);
	/* libtraceevent reads a field zero-extended and casts it to the
	 * conversion's int: a 16-bit -3 under %d is 65533 in perf script too */
	T_STR(fast, "s=65533 ret=-2 u=4294967290",
	      "a short -3 with %%d prints 65533 (as libtraceevent), a long -2 with %%ld "
	      "is -2, %%u stays unsigned");
	T_STR(fast, slow, "fast path equals tep_print_event");
}

static void test_bases(void)
{
	char fast[256], slow[256];
	int n;

	n = fast_and_slow(bases_format, "test", bases_rec, sizeof(bases_rec),
			  fast, sizeof(fast), slow, sizeof(slow));
	T(n >= 0, "%%o, %%X, %%lx and %%08x take the fast path (%d)", n);
	T_STR(fast, "mode=100755 flags=BEEF addr=ffffffff8a0b1c2d w=0000beef z=0 o=0",
	      "octal, upper and lower hex, 64 bits, zero padding, and zero in each");
	T_STR(fast, slow, "fast path equals tep_print_event");
}

static void test_short_record(void)
{
	char fast[256], slow[256];
	int n;

	n = fast_and_slow(signal_generate_format, "signal", signal_tkill, 18,
			  fast, sizeof(fast), slow, sizeof(slow));
	T_EQ(n, -1, "a record too short for its fields: tpf_render declines (-1)");
}

/* every int size, signed and not, under %d %u %x %X %o with and without
 * widths, lengths and flags; numbers back to back and at both ends */
static const char mixed_format[] =
	"name: mixed\n"
	"ID: 903\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:unsigned char uc;\toffset:9;\tsize:1;\tsigned:0;\n"
	"\tfield:short s;\toffset:10;\tsize:2;\tsigned:1;\n"
	"\tfield:int i;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int u;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:long l;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long ul;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"%d c=%hhd uc=%u s=%hd s2=%d i=%d%u%x u=%x ul=%lx l=%ld lu=%lu li=%d "
	"X=%X o=%lo w=%5d lw=%-6x z=%08lx hu=%hu hx=%hx uc2=%hhx end%ld)\", "
	"REC->i, REC->c, REC->uc, REC->s, REC->s, REC->i, REC->u, REC->u, REC->u, REC->ul, "
	"REC->l, REC->l, REC->l, REC->u, REC->ul, REC->i, REC->i, REC->ul, REC->s, REC->s, "
	"REC->uc, REC->l\n";

/* A number of every magnitude and sign from @x (xorshift state). */
static uint64_t any_number(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	switch (*x % 4) {
	case 0:  return *x >> (*x % 64);                     /* small to large */
	case 1:  return (uint64_t)0 - (*x >> (*x % 64));     /* negative */
	case 2:  return *x % 3 ? 0 : UINT64_MAX;             /* the ends */
	default: return *x % 101;                            /* two digits */
	}
}

static void test_mixed_random(void)
{
	unsigned char rec[40];
	/* room for the fused steps (tp_fastfmt.c); less takes the step-by-step path */
	char fast[4096], slow[512];
	uint64_t x = 0x2545f4914f6cdd1dull;
	int n = 0, bad = 0, i;

	for (i = 0; i < 2000 && !bad; i++) {
		uint64_t l = any_number(&x), ul = any_number(&x);
		uint32_t in = (uint32_t)any_number(&x), u = (uint32_t)any_number(&x);
		uint16_t sh = (uint16_t)any_number(&x), type = 903;
		int32_t pid = 1;

		memcpy(rec, &type, 2);
		rec[2] = rec[3] = 0;
		memcpy(rec + 4, &pid, 4);
		rec[8] = (unsigned char)any_number(&x);
		rec[9] = (unsigned char)any_number(&x);
		memcpy(rec + 10, &sh, 2);
		memcpy(rec + 12, &in, 4);
		memcpy(rec + 16, &u, 4);
		memset(rec + 20, 0, 4);
		memcpy(rec + 24, &l, 8);
		memcpy(rec + 32, &ul, 8);
		n = fast_and_slow(mixed_format, "test", rec, sizeof(rec), fast, sizeof(fast),
				  slow, sizeof(slow));
		bad = n < 0 || strcmp(fast, slow);
	}
	T(!bad, "2000 records of every size, sign and conversion: the fast path (%d) "
	  "prints what tep_print_event prints", n);
	if (bad)
		printf("#   record %d: got \"%s\", want \"%s\"\n", i, fast, slow);
	/* the last field cut off: the fused steps decline it too */
	n = fast_and_slow(mixed_format, "test", rec, 36, fast, sizeof(fast), slow, sizeof(slow));
	T_EQ(n, -1, "a record without its last field's bytes: tpf_render declines (-1)");
}

int main(void)
{
	test_negative_d();
	test_widths();
	test_bases();
	test_short_record();
	test_mixed_random();
	return done();
}
